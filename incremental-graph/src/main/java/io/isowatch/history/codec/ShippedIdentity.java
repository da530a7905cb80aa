package io.isowatch.history.codec;

/**
 * The identity fields the agent's shipper adds to each op map, {@code "agent"} and {@code "seq"}
 * (see the agent's {@code HistoryEventJson}), as the JSON reader passed them: reading them in the
 * same pass as the op saves the stream job a second parse of every record. Ops never carry them,
 * and nothing here is validated; the caller decides what a missing field or a wrong type means.
 *
 * <p>Filled by {@link HistoryReader#ofJson(String, byte[], io.isowatch.history.AtomTable, ShippedIdentity)}
 * for the last op map read, cleared at the start of each. Reused from record to record; not
 * thread-safe.
 */
public final class ShippedIdentity {

    private String agentText;
    private String agent;
    private String seqText;
    private long seq;

    void clear() {
        agentText = null;
        agent = null;
        seqText = null;
        seq = -1;
    }

    void agent(String value, String text) {
        agent = value;
        agentText = text;
    }

    void seq(long value, String text) {
        seq = value;
        seqText = text;
    }

    /** The {@code agent} field as written (a string quoted), or null when the op map has none. */
    public String agentText() {
        return agentText;
    }

    /** The {@code agent} field's string, or null when it is absent or not a string. */
    public String agent() {
        return agent;
    }

    /** The {@code seq} field as written, or null when the op map has none. */
    public String seqText() {
        return seqText;
    }

    /** The {@code seq} field's value, or -1 when it is absent or not an integer in 0..2^63-1. */
    public long seq() {
        return seq;
    }
}
