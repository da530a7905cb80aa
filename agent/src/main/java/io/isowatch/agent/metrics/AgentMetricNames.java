package io.isowatch.agent.metrics;

/**
 * The agent's Prometheus metric names and label names, in one place so that dashboards, alerts
 * and tests refer to the same strings. Counters end in {@code _total}; the only label is the
 * transaction outcome, which has three values.
 */
public final class AgentMetricNames {

    /** Counter: history events (invocations and completions) handed to the event log. */
    public static final String EVENTS_RECORDED = "isowatch_agent_events_recorded_total";
    /** Counter with label {@link #OUTCOME}: completed transactions by outcome. */
    public static final String TRANSACTIONS = "isowatch_agent_transactions_total";
    /** Histogram: time from invocation to completion of a transaction, in seconds. */
    public static final String TRANSACTION_LATENCY = "isowatch_agent_transaction_latency_seconds";
    /** Counter: events the shipper has had acknowledged by Kafka. */
    public static final String EVENTS_SHIPPED = "isowatch_agent_events_shipped_total";
    /** Counter: failed attempts to ship to Kafka. */
    public static final String SHIP_ERRORS = "isowatch_agent_ship_errors_total";
    /** Gauge: events in the spool that have not been shipped yet. */
    public static final String SPOOL_BACKLOG = "isowatch_agent_spool_backlog_events";
    /**
     * Gauge: 1 while the shipper cannot ship (topic missing, Kafka unreachable, no progress for
     * the stall timeout while events wait), else 0. {@link #SPOOL_BACKLOG} says how much waits.
     */
    public static final String SHIPPER_STALLED = "isowatch_agent_shipper_stalled";
    /** Counter: spool records that could not be decoded and were set aside in the quarantine file. */
    public static final String SPOOL_QUARANTINED = "isowatch_agent_spool_quarantined_records_total";

    /** Label of {@link #TRANSACTIONS}: {@code ok}, {@code fail} or {@code info}. */
    public static final String OUTCOME = "outcome";

    private AgentMetricNames() {
    }
}
