package io.isowatch.job.serde;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.codec.BinaryEventCodec;
import io.isowatch.history.codec.BinaryFormatException;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Flink serializer of {@link HistoryEvent}: a length (int) followed by the event in the core's
 * versioned binary format ({@link BinaryEventCodec}), so state written today stays readable as
 * long as the codec reads that version, then the name of the history the event belongs to
 * (modified UTF-8, empty for its agent's own history), which the binary form does not carry: the
 * operator keys events by it, after the network and after a restore alike.
 *
 * <p>An event decoded from the binary form keeps its bytes ({@link HistoryEvent#encoding}): the
 * source's records and the events read here are written on as they came, a copy instead of an
 * encoding, from the source to the checker and into its state.
 *
 * <p>Events are immutable, so {@code copy} returns its argument. Each instance owns a codec,
 * which is not thread-safe; {@link #duplicate()} therefore makes a new instance. String atoms are
 * written by the names the event carries ({@link HistoryEvent#strings}) and read back into a
 * table made for that event alone, whose names the decoded event carries in turn: no table is
 * shared, so nothing is locked and nothing grows.
 */
public final class HistoryEventSerializer extends TypeSerializer<HistoryEvent> {

    private static final long serialVersionUID = 1L;

    private transient BinaryEventCodec codec;
    private transient BinaryEventCodec decoder;

    /** The codec for an event: a shared one with an empty table when it names no strings. */
    private BinaryEventCodec codec(HistoryEvent event) {
        if (!event.strings().isEmpty()) {
            return new BinaryEventCodec(event.atoms());
        }
        if (codec == null) {
            codec = new BinaryEventCodec(new AtomTable());
        }
        return codec;
    }

    /** Decodes into a scratch table, replaced after each event that had strings. */
    private BinaryEventCodec decoder() {
        if (decoder == null) {
            decoder = new BinaryEventCodec(new AtomTable());
        }
        return decoder;
    }

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<HistoryEvent> duplicate() {
        return new HistoryEventSerializer();
    }

    @Override
    public HistoryEvent createInstance() {
        return null;
    }

    @Override
    public HistoryEvent copy(HistoryEvent from) {
        return from;
    }

    @Override
    public HistoryEvent copy(HistoryEvent from, HistoryEvent reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(HistoryEvent record, DataOutputView target) throws IOException {
        byte[] bytes = record.encoding() != null ? record.encoding() : codec(record).encode(record);
        target.writeInt(bytes.length);
        target.write(bytes);
        target.writeUTF(record.namesHistory() ? record.history() : "");
    }

    @Override
    public HistoryEvent deserialize(DataInputView source) throws IOException {
        int length = source.readInt();
        if (length < 0) {
            throw new IOException("corrupt history event: negative length " + length);
        }
        byte[] bytes = new byte[length];
        source.readFully(bytes);
        String history = source.readUTF();
        HistoryEvent event = decode(bytes);
        return history.isEmpty() ? event : event.inHistory(history);
    }

    private HistoryEvent decode(byte[] bytes) throws IOException {
        try {
            HistoryEvent event = decoder().decodeKeeping(bytes);
            if (decoder.atoms().stringCount() == 0) { // integers only: nothing to name
                return event;
            }
            HistoryEvent named = HistoryEvent.carrying(event.source(), event.sequence(), event.op(), decoder.atoms());
            if (event.declaresAgentProtocol()) {
                named = named.declaringAgentProtocol();
            }
            decoder = null; // the event took the names; the next one's strings are numbered afresh
            return named;
        } catch (BinaryFormatException e) {
            throw new IOException("cannot read a history event from state or the network: " + e.getMessage(), e);
        }
    }

    @Override
    public HistoryEvent deserialize(HistoryEvent reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        int length = source.readInt();
        target.writeInt(length);
        target.write(source, length);
        target.writeUTF(source.readUTF());
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof HistoryEventSerializer;
    }

    @Override
    public int hashCode() {
        return HistoryEventSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<HistoryEvent> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot of the stateless serializer; the payload carries its own codec version. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<HistoryEvent> {
        public Snapshot() {
            super(HistoryEventSerializer::new);
        }
    }
}
