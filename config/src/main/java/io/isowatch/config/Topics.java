package io.isowatch.config;

/**
 * The Kafka topics isowatch uses unless told otherwise, named once for every side that meets
 * there: agents ship history events to {@link #HISTORY}, the checker job reads it and writes
 * {@link #ALERTS} (which the findings console follows) and {@link #DEAD_LETTERS}. The job's
 * options, the agent's {@code --topic} and the console's {@code --alerts-topic} take their
 * defaults from here, so that a change of name reaches every side at once.
 */
public final class Topics {

    /** History events, one per record, keyed by agent: what agents ship and the job reads. */
    public static final String HISTORY = "isowatch.history";

    /** Alerts, one JSON finding per record, keyed by the finding's stable id. */
    public static final String ALERTS = "isowatch.alerts";

    /** Malformed records, protocol faults and late events the job could not check. */
    public static final String DEAD_LETTERS = "isowatch.dead-letters";

    private Topics() {
    }
}
