package io.isowatch.job;

/**
 * Names and uids of the job's operators. A uid ties an operator to its state in checkpoints and
 * savepoints: once released, a uid never changes, or restored jobs lose that state. Names are
 * for people (web UI, metrics) and may change.
 */
public final class OperatorIds {

    public static final String SOURCE_NAME = "history source";
    public static final String SOURCE_UID = "history-source";

    public static final String SPLIT_DEAD_LETTERS_NAME = "split malformed records";
    public static final String SPLIT_DEAD_LETTERS_UID = "split-dead-letters";

    public static final String CHECK_TRANSACTIONS_NAME = "check transactions";
    /**
     * The one operator per history (decision 0010). Before it, a separate stage 1 ran under
     * the uid {@code pair-completions-by-agent} (and {@code pair-completions} before that); a
     * savepoint that holds it restores only with {@code --allowNonRestoredState}: see
     * docs/state.md, "Upgrading".
     */
    public static final String CHECK_TRANSACTIONS_UID = "check-transactions";

    public static final String CHECKED_EVENTS_SINK_NAME = "checked events sink";
    public static final String CHECKED_EVENTS_SINK_UID = "checked-events-sink";

    public static final String ALERT_SINK_NAME = "alerts sink";
    /** Followed by "-1", "-2", … in the order the sinks are configured. */
    public static final String ALERT_SINK_UID = "alert-sink";

    public static final String VERDICT_SINK_NAME = "verdict sink";
    public static final String VERDICT_SINK_UID = "verdict-sink";

    public static final String LATE_EVENTS_NAME = "late events to dead letters";
    public static final String LATE_EVENTS_UID = "late-events-to-dead-letters";

    public static final String DEAD_LETTER_SINK_NAME = "dead letters sink";
    public static final String DEAD_LETTER_SINK_UID = "dead-letter-sink";


    private OperatorIds() {
    }
}
