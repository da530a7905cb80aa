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

    public static final String PAIR_COMPLETIONS_NAME = "dedupe and pair completions";
    public static final String PAIR_COMPLETIONS_UID = "pair-completions";

    public static final String COMPLETED_SINK_NAME = "completed transactions sink";
    public static final String COMPLETED_SINK_UID = "completed-txn-sink";

    public static final String DEAD_LETTER_SINK_NAME = "dead letters sink";
    public static final String DEAD_LETTER_SINK_UID = "dead-letter-sink";

    public static final String LATE_EVENTS_SINK_NAME = "late events sink";
    public static final String LATE_EVENTS_SINK_UID = "late-events-sink";

    private OperatorIds() {
    }
}
