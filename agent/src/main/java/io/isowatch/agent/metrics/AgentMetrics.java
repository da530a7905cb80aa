package io.isowatch.agent.metrics;

import io.isowatch.history.OpType;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The agent's metrics, registered in one {@link PrometheusRegistry}.
 *
 * <p>Thread-safe: every method may be called from any thread. Recording costs a few atomic
 * additions (client_java's counters are striped), so the recorder can call it on the client's
 * thread. Names are in {@link AgentMetricNames}; the only label is the outcome, which is
 * bounded to {@code ok}, {@code fail} and {@code info}.
 */
public final class AgentMetrics {

    /** 10 µs to ~10 s: the embedded store answers in microseconds, a real database in millis. */
    private static final double[] LATENCY_BUCKETS_SECONDS = {
        0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
        0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

    private final PrometheusRegistry registry;
    private final Counter eventsRecorded;
    private final CounterDataPoint ok;
    private final CounterDataPoint fail;
    private final CounterDataPoint info;
    private final Histogram latency;
    private final Counter eventsShipped;
    private final Counter shipErrors;
    private final Counter quarantined;
    private GaugeWithCallback backlogGauge;
    private GaugeWithCallback stalledGauge;

    /** Registers the agent's metrics in {@code registry}; a registry takes one AgentMetrics. */
    public AgentMetrics(PrometheusRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        eventsRecorded = Counter.builder()
                .name(AgentMetricNames.EVENTS_RECORDED)
                .help("History events (invocations and completions) written to the agent's event log")
                .register(registry);
        Counter transactions = Counter.builder()
                .name(AgentMetricNames.TRANSACTIONS)
                .help("Completed transactions by outcome: ok (committed), fail (aborted), info (unknown)")
                .labelNames(AgentMetricNames.OUTCOME)
                .register(registry);
        ok = transactions.labelValues(OpType.OK.jepsenName());
        fail = transactions.labelValues(OpType.FAIL.jepsenName());
        info = transactions.labelValues(OpType.INFO.jepsenName());
        latency = Histogram.builder()
                .name(AgentMetricNames.TRANSACTION_LATENCY)
                .help("Time from a transaction's invocation to its completion")
                .classicOnly()
                .classicUpperBounds(LATENCY_BUCKETS_SECONDS)
                .register(registry);
        eventsShipped = Counter.builder()
                .name(AgentMetricNames.EVENTS_SHIPPED)
                .help("History events acknowledged by Kafka")
                .register(registry);
        shipErrors = Counter.builder()
                .name(AgentMetricNames.SHIP_ERRORS)
                .help("Failed attempts to ship history events to Kafka")
                .register(registry);
        quarantined = Counter.builder()
                .name(AgentMetricNames.SPOOL_QUARANTINED)
                .help("Spool records that could not be decoded, set aside in the spool's quarantine.jsonl")
                .register(registry);
    }

    /** Counts one event written to the event log. */
    public void eventRecorded() {
        eventsRecorded.inc();
    }

    /**
     * Counts one completed transaction.
     *
     * @throws IllegalArgumentException for {@link OpType#INVOKE}, which is not an outcome
     */
    public void outcome(OpType type) {
        switch (type) {
            case OK -> ok.inc();
            case FAIL -> fail.inc();
            case INFO -> info.inc();
            default -> throw new IllegalArgumentException(
                    "outcome must be ok, fail or info, got " + type + "; invocations are counted by eventRecorded()");
        }
    }

    /** Observes one transaction's invocation-to-completion time. */
    public void transactionLatency(long nanos) {
        latency.observe(nanos / 1e9);
    }

    /** Counts {@code n} events acknowledged by Kafka. */
    public void eventsShipped(long n) {
        eventsShipped.inc(n);
    }

    /** Counts one failed attempt to ship. */
    public void shipError() {
        shipErrors.inc();
    }

    /** Counts one spool record set aside as undecodable. */
    public void recordQuarantined() {
        quarantined.inc();
    }

    /**
     * Publishes whether the shipper is stalled (1) or shipping (0): {@code stalled} is called on
     * each scrape. Calling this again replaces the previous supplier.
     */
    public synchronized void shipperStalled(BooleanSupplier stalled) {
        Objects.requireNonNull(stalled, "stalled");
        if (stalledGauge != null) {
            registry.unregister(stalledGauge);
        }
        stalledGauge = GaugeWithCallback.builder()
                .name(AgentMetricNames.SHIPPER_STALLED)
                .help("1 while the shipper cannot ship (topic missing, Kafka unreachable, no progress), else 0")
                .callback(callback -> callback.call(stalled.getAsBoolean() ? 1 : 0))
                .register(registry);
    }

    /**
     * Publishes the spool backlog: {@code backlog} is called on each scrape, so it must be cheap
     * and thread-safe. Calling this again replaces the previous supplier.
     */
    public synchronized void spoolBacklog(LongSupplier backlog) {
        Objects.requireNonNull(backlog, "backlog");
        if (backlogGauge != null) {
            registry.unregister(backlogGauge);
        }
        backlogGauge = GaugeWithCallback.builder()
                .name(AgentMetricNames.SPOOL_BACKLOG)
                .help("History events in the local spool not yet acknowledged by Kafka")
                .callback(callback -> callback.call(backlog.getAsLong()))
                .register(registry);
    }

    /**
     * Starts an HTTP server exposing {@code registry} at {@code /metrics}, listening on
     * {@code address} only: the callers pass loopback unless the user asked for another address,
     * since anyone who reaches the port reads the agent's targets and rates.
     *
     * @param port the TCP port, or 0 for an ephemeral one ({@link HTTPServer#getPort()} tells which)
     * @throws UncheckedIOException when the port cannot be bound
     */
    public static HTTPServer serve(PrometheusRegistry registry, InetAddress address, int port) {
        Objects.requireNonNull(address, "address");
        try {
            return HTTPServer.builder().registry(registry).inetAddress(address).port(port).buildAndStart();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics on " + address.getHostAddress() + " port " + port
                    + ": " + e.getMessage(), e);
        }
    }
}
