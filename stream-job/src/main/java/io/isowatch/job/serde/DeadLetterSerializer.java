package io.isowatch.job.serde;

import io.isowatch.job.DeadLetter;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

import java.io.IOException;

/**
 * Flink serializer of {@link DeadLetter}. Layout: kind (by name, so reordering the enum is
 * harmless), error, raw, topic as Flink strings, then partition (int) and offset (long).
 */
public final class DeadLetterSerializer extends ImmutableValueSerializer<DeadLetter> {

    private static final long serialVersionUID = 1L;

    /** The one instance; the serializer is stateless. */
    public static final DeadLetterSerializer INSTANCE = new DeadLetterSerializer();

    @Override
    public DeadLetter createInstance() {
        return null;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(DeadLetter d, DataOutputView out) throws IOException {
        StringValue.writeString(d.kind().name(), out);
        StringValue.writeString(d.error(), out);
        StringValue.writeString(d.raw(), out);
        StringValue.writeString(d.topic(), out);
        out.writeInt(d.partition());
        out.writeLong(d.offset());
    }

    @Override
    public DeadLetter deserialize(DataInputView in) throws IOException {
        String kind = StringValue.readString(in);
        DeadLetter.Kind k;
        try {
            k = DeadLetter.Kind.valueOf(kind);
        } catch (IllegalArgumentException e) {
            throw new IOException("unknown dead-letter kind \"" + kind + "\" in state or on the network", e);
        }
        return new DeadLetter(k, StringValue.readString(in), StringValue.readString(in),
                StringValue.readString(in), in.readInt(), in.readLong());
    }

    @Override
    public TypeSerializerSnapshot<DeadLetter> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot of the stateless serializer. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<DeadLetter> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
