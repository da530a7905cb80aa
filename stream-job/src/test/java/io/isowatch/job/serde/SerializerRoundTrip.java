package io.isowatch.job.serde;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Writes values with a serializer, writes its snapshot, restores a serializer from the snapshot
 * (as a restarted job would), reads the values back with it and compares.
 */
final class SerializerRoundTrip {

    private SerializerRoundTrip() {
    }

    static <T> void check(TypeSerializer<T> serializer, List<T> values) throws IOException {
        check(serializer, values, Function.identity());
    }

    /** As {@link #check(TypeSerializer, List)}, comparing what {@code view} makes of each value. */
    static <T> void check(TypeSerializer<T> serializer, List<T> values, Function<T, ?> view) throws IOException {
        DataOutputSerializer data = new DataOutputSerializer(256);
        for (T v : values) {
            serializer.serialize(v, data);
        }
        DataOutputSerializer snap = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(snap, serializer.snapshotConfiguration());

        TypeSerializerSnapshot<T> restoredSnapshot = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(snap.getCopyOfBuffer()), SerializerRoundTrip.class.getClassLoader());
        TypeSerializerSchemaCompatibility<T> compat =
                serializer.snapshotConfiguration().resolveSchemaCompatibility(restoredSnapshot);
        assertTrue(compat.isCompatibleAsIs(), "the current serializer must read the restored state as is");
        TypeSerializer<T> restored = restoredSnapshot.restoreSerializer();
        assertEquals(serializer, restored);

        DataInputDeserializer in = new DataInputDeserializer(data.getCopyOfBuffer());
        List<T> read = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            read.add(restored.deserialize(in));
        }
        assertEquals(0, in.available(), "bytes left over");
        assertEquals(values.stream().map(view).toList(), read.stream().map(view).toList());

        // copy(in, out) must reproduce the same bytes; duplicate() must behave the same.
        DataInputDeserializer again = new DataInputDeserializer(data.getCopyOfBuffer());
        DataOutputSerializer copied = new DataOutputSerializer(256);
        TypeSerializer<T> dup = serializer.duplicate();
        for (int i = 0; i < values.size(); i++) {
            dup.copy(again, copied);
        }
        assertEquals(List.of(data.getCopyOfBuffer().length), List.of(copied.getCopyOfBuffer().length));
        for (T v : values) {
            assertEquals(view.apply(v), view.apply(serializer.copy(v)));
        }
    }
}
