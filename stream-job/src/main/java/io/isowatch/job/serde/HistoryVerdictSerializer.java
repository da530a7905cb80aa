package io.isowatch.job.serde;

import io.isowatch.explain.VerdictCodec;
import io.isowatch.history.AtomTable;
import io.isowatch.job.HistoryVerdict;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

import java.io.IOException;

/**
 * Flink serializer of {@link HistoryVerdict}: the history as a Flink string, then the verdict in
 * the core's versioned layout ({@link VerdictCodec}), which carries its string atoms by name; a
 * read interns them into a table of the record's own.
 */
public final class HistoryVerdictSerializer extends ImmutableValueSerializer<HistoryVerdict> {

    private static final long serialVersionUID = 1L;

    /** The one instance; the serializer is stateless. */
    public static final HistoryVerdictSerializer INSTANCE = new HistoryVerdictSerializer();

    @Override
    public HistoryVerdict createInstance() {
        return null;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(HistoryVerdict v, DataOutputView out) throws IOException {
        StringValue.writeString(v.history(), out);
        VerdictCodec.write(out, v.verdict(), v.atoms());
    }

    @Override
    public HistoryVerdict deserialize(DataInputView in) throws IOException {
        String history = StringValue.readString(in);
        AtomTable atoms = new AtomTable();
        return new HistoryVerdict(history, VerdictCodec.read(in, atoms), atoms);
    }

    @Override
    public TypeSerializerSnapshot<HistoryVerdict> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot of the stateless serializer; the payload carries its own codec version. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<HistoryVerdict> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
