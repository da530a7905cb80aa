package io.isowatch.job.serde;

import io.isowatch.job.operators.ProcessProgress;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/** Flink serializer of {@link ProcessProgress}: fixed 17 bytes (long, long, boolean). */
public final class ProcessProgressSerializer extends ImmutableValueSerializer<ProcessProgress> {

    private static final long serialVersionUID = 1L;

    /** The one instance; the serializer is stateless. */
    public static final ProcessProgressSerializer INSTANCE = new ProcessProgressSerializer();

    private static final int LENGTH = 8 + 8 + 1;

    @Override
    public ProcessProgress createInstance() {
        return new ProcessProgress(-1, Long.MIN_VALUE, false);
    }

    @Override
    public int getLength() {
        return LENGTH;
    }

    @Override
    public void serialize(ProcessProgress p, DataOutputView out) throws IOException {
        out.writeLong(p.lastSequence());
        out.writeLong(p.lastTimestamp());
        out.writeBoolean(p.retired());
    }

    @Override
    public ProcessProgress deserialize(DataInputView in) throws IOException {
        return new ProcessProgress(in.readLong(), in.readLong(), in.readBoolean());
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        out.write(in, LENGTH);
    }

    @Override
    public TypeSerializerSnapshot<ProcessProgress> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot of the stateless serializer. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<ProcessProgress> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
