package io.isowatch.history.codec;

/**
 * The identity fields the agent's shipper adds to each op map, {@code "agent"} and {@code "seq"},
 * and {@code "history"} when the agent records a named history with others (see
 * {@link HistoryEventJson}), as the JSON reader passed them: reading them in the
 * same pass as the op saves the stream job a second parse of every record. Ops never carry them,
 * and nothing here is validated; the caller decides what a missing field or a wrong type means.
 *
 * <p>Filled by {@link HistoryReader#ofJson(String, byte[], io.isowatch.history.AtomTable, ShippedIdentity)}
 * for the last op map read, cleared at the start of each. Only a value of the wrong kind is kept
 * as text when read; the text of a good value is made when asked for, so a well-formed record
 * costs no strings beyond the agent id. Reused from record to record; not thread-safe.
 */
public final class ShippedIdentity {

    private boolean hasAgent;
    private String agent;
    private String badAgentText;
    private boolean hasSeq;
    private long seq = -1;
    private String badSeqText;
    private boolean hasHistory;
    private String history;
    private String badHistoryText;

    void clear() {
        hasAgent = false;
        agent = null;
        badAgentText = null;
        hasSeq = false;
        seq = -1;
        badSeqText = null;
        hasHistory = false;
        history = null;
        badHistoryText = null;
    }

    void history(String value) {
        hasHistory = true;
        history = value;
    }

    void badHistory(String text) {
        hasHistory = true;
        badHistoryText = text;
    }

    /** True when the op map has a {@code history} field, of whatever kind. */
    public boolean hasHistory() {
        return hasHistory;
    }

    /** The {@code history} field's string, or null when it is absent or not a string. */
    public String history() {
        return history;
    }

    /** The {@code history} field as a message shows it (a string quoted), or null when the op map has none. */
    public String historyText() {
        return history != null ? CodecMessages.quote(history) : badHistoryText;
    }

    void agent(String value) {
        hasAgent = true;
        agent = value;
    }

    void badAgent(String text) {
        hasAgent = true;
        badAgentText = text;
    }

    void seq(long value) {
        hasSeq = true;
        seq = value;
    }

    void badSeq(String text) {
        hasSeq = true;
        badSeqText = text;
    }

    /** True when the op map has an {@code agent} field, of whatever kind. */
    public boolean hasAgent() {
        return hasAgent;
    }

    /** The {@code agent} field as a message shows it (a string quoted), or null when the op map has none. */
    public String agentText() {
        return agent != null ? CodecMessages.quote(agent) : badAgentText;
    }

    /** The {@code agent} field's string, or null when it is absent or not a string. */
    public String agent() {
        return agent;
    }

    /** True when the op map has a {@code seq} field, of whatever kind. */
    public boolean hasSeq() {
        return hasSeq;
    }

    /** The {@code seq} field as written, or null when the op map has none. */
    public String seqText() {
        return seq >= 0 ? Long.toString(seq) : badSeqText;
    }

    /** The {@code seq} field's value, or -1 when it is absent or not an integer in 0..2^63-1. */
    public long seq() {
        return seq;
    }
}
