package io.isowatch.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One history event as it travels from an agent to the checker: the op, plus the identity that
 * lets a consumer drop a re-sent copy.
 *
 * <p>{@code (source, sequence)} is unique: {@code source} names the agent that recorded the
 * event and {@code sequence} counts that agent's events from 0 without gaps. A shipper that sends
 * an event twice (after a restart, say) sends it with the same identity.
 *
 * <p><b>String atoms.</b> A string atom means something only beside the table that made it. An
 * event read off the wire (in the stream job: between its tasks, in its state) therefore carries
 * the names of its string keys and values in {@code strings}: atom {@code Long.MIN_VALUE + i} is
 * {@code strings.get(i)}, the numbering {@code BinaryEventCodec} writes. Whoever keeps such
 * events re-codes them into a table of its own ({@link #opIn}), so no table is shared between
 * tasks. An event whose string atoms belong to a table its holder keeps (the agent's recorder)
 * has no names, like an event of integers only.
 *
 * <p><b>Its encoding, kept.</b> An event decoded from the binary form ({@code BinaryEventCodec})
 * may keep the bytes it came from ({@link #encoding}), so that whoever writes it on (the stream
 * job: from its source to the checker, and into state) copies them instead of encoding it again.
 * The bytes are not part of the value: equality, hash and text are those of the other fields,
 * as a record's would be.
 *
 * <p><b>The agent protocol.</b> A history's first event (sequence 0) may declare that its
 * producer keeps the agent protocol ({@link #declaresAgentProtocol}; decision 0016): every
 * invocation recorded, with the values it writes, before its operation starts; events numbered
 * densely in the order they were recorded; every transaction completed or marked {@code :info}.
 * The checker then judges garbage reads at their reader's completion instead of at the end.
 *
 * <p><b>Its history.</b> Several agents may record one named history together (issue 37: a
 * fleet of client hosts). An event then names it ({@link #inHistory}): {@link #history()} is that
 * name, and {@code (source, sequence)} stays the event's identity, each agent numbering its own
 * events. An event that names none belongs to its agent's own history, and {@link #history()} is
 * its source, so code that keys histories by source keeps its meaning. The name is not part of
 * the binary form ({@code BinaryEventCodec}): an agent's whole spool belongs to one history,
 * known from its configuration, so the shipper names it beside each record (a Kafka header) and
 * the reader of a record puts it back with {@link #inHistory}.
 */
public final class HistoryEvent {

    private static final long FIRST_STRING = Long.MIN_VALUE;

    /**
     * The agent protocol's name where a record declares it in text: the {@value #PROTOCOL_HEADER}
     * header of a history's first Kafka record (a JSON record has no other place for it).
     */
    public static final String AGENT_PROTOCOL = "isowatch-agent";
    /** The Kafka header naming the protocol a history's first record declares. */
    public static final String PROTOCOL_HEADER = "protocol";
    /**
     * The Kafka header (UTF-8) naming the history of an event that names one ({@link #inHistory}),
     * on every such record; a JSON record may carry it as its {@code history} field instead.
     */
    public static final String HISTORY_HEADER = "history";

    private final String source;
    private final long sequence;
    private final Op op;
    private final List<String> strings;
    /** The binary form this event was decoded from, or null. */
    private final byte[] encoding;
    private final boolean declaresAgentProtocol;
    /** The history's name, or null for the source's own history. */
    private final String history;

    /**
     * @param source   the recording agent's id
     * @param sequence the agent's event counter
     * @param op       the Jepsen op
     * @param strings  the names of the op's string atoms, by code; empty when it has none or they
     *                 belong to a table its holder keeps
     */
    public HistoryEvent(String source, long sequence, Op op, List<String> strings) {
        this(source, sequence, op, strings, null, false, null);
    }

    private HistoryEvent(String source, long sequence, Op op, List<String> strings, byte[] encoding,
                         boolean declaresAgentProtocol, String history) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(op, "op");
        if (source.isEmpty()) {
            throw new IllegalArgumentException("an event's source (agent id) must not be empty");
        }
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence must be >= 0, got " + sequence);
        }
        this.source = source;
        this.sequence = sequence;
        this.op = op;
        this.strings = List.copyOf(strings);
        this.encoding = encoding;
        if (declaresAgentProtocol && sequence != 0) {
            throw new IllegalArgumentException("only a history's first event (sequence 0) declares the agent protocol; "
                    + "event " + sequence + " of agent " + source + " does");
        }
        this.declaresAgentProtocol = declaresAgentProtocol;
        if (history != null && history.isEmpty()) {
            throw new IllegalArgumentException("a history's name must not be empty; event " + sequence + " of agent "
                    + source + " names \"\" (name none for the agent's own history)");
        }
        this.history = history;
    }

    /**
     * This event, declaring that its history keeps the agent protocol (see the class comment).
     *
     * @throws IllegalArgumentException unless this is the history's first event (sequence 0)
     */
    public HistoryEvent declaringAgentProtocol() {
        // The kept bytes, if any, may not carry the declaration: written on, the event is encoded afresh (it is one event per history).
        return declaresAgentProtocol ? this : new HistoryEvent(source, sequence, op, strings, null, true, history);
    }

    /**
     * This event, belonging to the history named {@code name} (see the class comment); the kept
     * encoding, if any, stays, since the binary form does not carry the name.
     *
     * @throws IllegalArgumentException when {@code name} is empty
     */
    public HistoryEvent inHistory(String name) {
        Objects.requireNonNull(name, "name");
        return name.equals(history) ? this
                : new HistoryEvent(source, sequence, op, strings, encoding, declaresAgentProtocol, name);
    }

    /**
     * The history this event belongs to: the name it was given ({@link #inHistory}), or else its
     * source, the agent's own history.
     */
    public String history() {
        return history != null ? history : source;
    }

    /** Whether this event names its history ({@link #inHistory}) rather than belonging to its source's own. */
    public boolean namesHistory() {
        return history != null;
    }

    /** Whether this first event of its history declares the agent protocol. */
    public boolean declaresAgentProtocol() {
        return declaresAgentProtocol;
    }

    /** An event whose string atoms, if any, belong to a table its holder keeps. */
    public HistoryEvent(String source, long sequence, Op op) {
        this(source, sequence, op, List.of());
    }

    /**
     * An event carrying the names of its string atoms, taken from {@code atoms}: a table made
     * for this event alone (a decoder's scratch table), so that its codes number the names from
     * {@code Long.MIN_VALUE}.
     */
    public static HistoryEvent carrying(String source, long sequence, Op op, AtomTable atoms) {
        int n = atoms.stringCount();
        if (n == 0) {
            return new HistoryEvent(source, sequence, op);
        }
        List<String> names = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            names.add((String) atoms.valueOf(FIRST_STRING + i));
        }
        return new HistoryEvent(source, sequence, op, names);
    }

    /**
     * The event of integer atoms only that {@code encoding}, its whole binary form, was just
     * decoded into: the decoder's own use ({@code BinaryEventCodec#decodeKeeping}). The array
     * is kept, not copied, so its owner must not change it afterwards.
     */
    public static HistoryEvent decodedFrom(String source, long sequence, Op op, byte[] encoding) {
        return new HistoryEvent(source, sequence, op, List.of(), Objects.requireNonNull(encoding, "encoding"), false,
                null);
    }

    public String source() {
        return source;
    }

    public long sequence() {
        return sequence;
    }

    public Op op() {
        return op;
    }

    public List<String> strings() {
        return strings;
    }

    /**
     * The binary form ({@code BinaryEventCodec}) this event was decoded from, or null when it
     * was not kept; shared, not copied: do not change it.
     */
    public byte[] encoding() {
        return encoding;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HistoryEvent e && sequence == e.sequence && source.equals(e.source) && op.equals(e.op)
                && strings.equals(e.strings) && declaresAgentProtocol == e.declaresAgentProtocol
                && Objects.equals(history, e.history);
    }

    @Override
    public int hashCode() {
        return Objects.hash(source, sequence, op, strings, declaresAgentProtocol, history);
    }

    @Override
    public String toString() {
        return "HistoryEvent[source=" + source + ", sequence=" + sequence + ", op=" + op + ", strings=" + strings
                + (declaresAgentProtocol ? ", declaresAgentProtocol" : "") + (history != null ? ", history=" + history : "")
                + "]";
    }

    /** A table naming this event's string atoms, for writing the event out; fresh on each call. */
    public AtomTable atoms() {
        AtomTable table = new AtomTable();
        strings.forEach(table::ofString);
        return table;
    }

    /**
     * The op with its string atoms re-coded into {@code table} (interned there on first use);
     * the op itself when it carries no names. Linear in the op's atoms ({@link OpAtoms#map}).
     *
     * @throws IllegalArgumentException when the op has a string atom this event does not name
     */
    public Op opIn(AtomTable table) {
        if (strings.isEmpty()) {
            return op;
        }
        return OpAtoms.map(op, atom -> {
            if (!AtomTable.isString(atom)) {
                return atom;
            }
            long i = atom - FIRST_STRING;
            if (i >= strings.size()) {
                throw new IllegalArgumentException("event seq " + sequence + " of agent " + source + " has string atom "
                        + atom + " but names only " + strings.size() + " strings");
            }
            return table.ofString(strings.get((int) i));
        });
    }
}
