package io.isowatch.job.serde;

import io.isowatch.history.HistoryEvent;
import io.isowatch.job.CompletedTxn;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Flink serializer of {@link CompletedTxn}: the invocation, then the completion, each as a
 * {@link HistoryEventSerializer} writes it. Holds a codec, so {@link #duplicate()} makes a new one.
 */
public final class CompletedTxnSerializer extends TypeSerializer<CompletedTxn> {

    private static final long serialVersionUID = 1L;

    private final HistoryEventSerializer events = new HistoryEventSerializer();

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<CompletedTxn> duplicate() {
        return new CompletedTxnSerializer();
    }

    @Override
    public CompletedTxn createInstance() {
        return null;
    }

    @Override
    public CompletedTxn copy(CompletedTxn from) {
        return from;
    }

    @Override
    public CompletedTxn copy(CompletedTxn from, CompletedTxn reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(CompletedTxn txn, DataOutputView out) throws IOException {
        events.serialize(txn.invocation(), out);
        events.serialize(txn.completion(), out);
    }

    @Override
    public CompletedTxn deserialize(DataInputView in) throws IOException {
        HistoryEvent invocation = events.deserialize(in);
        HistoryEvent completion = events.deserialize(in);
        try {
            return new CompletedTxn(invocation, completion);
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt completed transaction: " + e.getMessage(), e);
        }
    }

    @Override
    public CompletedTxn deserialize(CompletedTxn reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        events.copy(in, out);
        events.copy(in, out);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof CompletedTxnSerializer;
    }

    @Override
    public int hashCode() {
        return CompletedTxnSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<CompletedTxn> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot of the stateless serializer; the events carry their own codec version. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<CompletedTxn> {
        public Snapshot() {
            super(CompletedTxnSerializer::new);
        }
    }
}
