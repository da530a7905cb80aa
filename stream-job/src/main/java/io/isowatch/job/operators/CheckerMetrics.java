package io.isowatch.job.operators;

import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.anomaly.Finding;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.graph.DependencyGraph;
import io.isowatch.sinks.Alert;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;

/**
 * The checker operator's metrics, in the group {@value #GROUP}. Through Flink's Prometheus
 * reporter they appear as {@code flink_taskmanager_job_task_operator_isowatch_<name>}; key-value
 * groups become labels ({@code anomaly}, {@code model}), both bounded sets, and their key joins
 * the name: {@code addGroup("anomaly", type).counter("findings")} is exported as
 * {@code …_isowatch_anomaly_findings{anomaly="G2-item"}}. The {@code history} label takes one
 * value per agent, so it is as bounded as the set of agents. RocksDB's own size of each state
 * ({@code column_family} label) comes from the native metrics {@code CheckerJob} enables.
 *
 * <p><b>The delay histogram.</b> Flink's metric types have no histogram with buckets (its
 * {@code Histogram} leaves the reporter as quantiles of a sample), so the buckets are one Flink
 * counter each, in the key-value group {@code le}, which the reporter turns into the label
 * {@code le} — and, as for every key-value group, the key joins the name. The sum and count sit
 * in that same group without a value, so the three share the base name
 * {@code flink_taskmanager_job_task_operator_isowatch_le_detection_delay_seconds} and read as one
 * histogram in PromQL ({@code histogram_quantile(0.99, sum by (le) (rate(…_bucket[5m])))}). The
 * reporter exports counters as gauges, so the exposition's {@code # TYPE} says gauge, not
 * histogram; the samples follow the histogram convention (cumulative buckets in seconds, {@code
 * le="+Inf"} equal to the count). Each subtask exports its own series: sum them by {@code le}.
 *
 * <p>Gauges are read on the reporter's thread: they read values the task thread publishes
 * (volatile fields in a concurrent map), never the operator's own collections.
 *
 * <table>
 *   <caption>Metrics</caption>
 *   <tr><td>transactions_checked</td><td>counter</td><td>completed transactions fed to the checker</td></tr>
 *   <tr><td>anomaly_findings{anomaly}</td><td>counter</td><td>findings by anomaly type</td></tr>
 *   <tr><td>model_ruled_out{model}</td><td>gauge</td><td>1 once a finding rules the model out, else 0</td></tr>
 *   <tr><td>graph_transactions</td><td>gauge</td><td>transactions in the alerting checkers' dependency graphs</td></tr>
 *   <tr><td>graph_edges</td><td>gauge</td><td>edges in those graphs</td></tr>
 *   <tr><td>detection_delay_ms</td><td>histogram</td><td>from the completion of a finding's last transaction to its alert;
 *       a Flink histogram of the last 10,000 alerts, which the reporter exports as quantiles (a summary)</td></tr>
 *   <tr><td>le_detection_delay_seconds_bucket{le}</td><td>counter</td><td>the same delay as a Prometheus histogram:
 *       alerts whose delay was at most {@code le} seconds ({@link #DELAY_BUCKETS}, then {@code +Inf}), cumulative,
 *       since the task started</td></tr>
 *   <tr><td>le_detection_delay_seconds_sum</td><td>gauge</td><td>the delays' sum, seconds</td></tr>
 *   <tr><td>le_detection_delay_seconds_count</td><td>counter</td><td>alerts with a known delay (the {@code +Inf} bucket)</td></tr>
 *   <tr><td>findings_released_at_end</td><td>counter</td><td>alerts released only when their history ended
 *       (settle time, decision 0009); their delay includes the wait for the end</td></tr>
 *   <tr><td>agent_protocol_histories</td><td>counter</td><td>histories whose first event declared the agent protocol,
 *       so that their garbage reads are alerted as the reads complete (decision 0016)</td></tr>
 *   <tr><td>agent_protocol_given_up</td><td>counter</td><td>of those, histories where a gap in the events fed (or a completion
 *       without its invocation) made the checker give the protocol up: their later garbage reads wait for the end</td></tr>
 *   <tr><td>duplicate_events</td><td>counter</td><td>re-sent copies of events already waiting or let go, dropped</td></tr>
 *   <tr><td>late_events</td><td>counter</td><td>events behind the watermark, or whose sequence a release passed over</td></tr>
 *   <tr><td>dead_letters</td><td>counter</td><td>events that break the protocol, or that the checker rejected</td></tr>
 *   <tr><td>restored_batches</td><td>counter</td><td>batches replayed to rebuild the checkers after a restore</td></tr>
 *   <tr><td>evicted_transactions</td><td>counter</td><td>transactions the checkers forgot (history-retention)</td></tr>
 *   <tr><td>evictions</td><td>counter</td><td>times a checker forgot its oldest transactions (every half retention)</td></tr>
 *   <tr><td>checker_rebuilds</td><td>counter</td><td>checkers rebuilt from the kept batches because their string table outgrew them</td></tr>
 *   <tr><td>unverifiable_reads</td><td>counter</td><td>reads of values whose writer was evicted: edges the checker can no longer draw</td></tr>
 *   <tr><td>retained_events</td><td>gauge</td><td>events kept in state for the live histories (waiting and checked)</td></tr>
 *   <tr><td>history_retained_events{history}</td><td>gauge</td><td>the same for one history (the operator's key), its state size in events</td></tr>
 *   <tr><td>history_graph_transactions{history}</td><td>gauge</td><td>transactions in that history's alerting checker</td></tr>
 * </table>
 */
final class CheckerMetrics {

    static final String GROUP = "isowatch";

    /** Upper bounds of the delay histogram's buckets, in seconds, around the 1 s target; {@code +Inf} follows. */
    static final double[] DELAY_BUCKETS = {0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60};
    /** The key-value group of the buckets; its key is the Prometheus label and joins the name. */
    static final String BUCKET_LABEL = "le";
    static final String DELAY_SECONDS = "detection_delay_seconds";
    static final String RELEASED_AT_END = "findings_released_at_end";

    /** One history's published sizes. */
    static final class HistorySize {
        private volatile long events;
        private volatile long graphTransactions;
        private volatile long graphEdges;

        /** Publishes the history's sizes (task thread). */
        void update(long retainedEvents, DependencyGraph graph) {
            events = retainedEvents;
            graphTransactions = graph.nodeCount();
            graphEdges = graph.edgeCount();
        }

        void clear() {
            events = 0;
            graphTransactions = 0;
            graphEdges = 0;
        }
    }

    private final MetricGroup group;
    private final Counter checked;
    private final Counter duplicates;
    private final Counter late;
    private final Counter deadLetters;
    private final Counter restored;
    private final Counter evicted;
    private final Counter evictions;
    private final Counter rebuilds;
    private final Counter unverifiable;
    private final Counter protocolHistories;
    private final Counter protocolGivenUp;
    private final DescriptiveStatisticsHistogram delay = new DescriptiveStatisticsHistogram(10_000);
    /** One cumulative counter per bound of {@link #DELAY_BUCKETS}, then {@code +Inf}. */
    private final Counter[] delayBuckets = new Counter[DELAY_BUCKETS.length + 1];
    private final Counter delayCount;
    /** Written on the task thread, read by the sum's gauge on the reporter's. */
    private volatile long delaySumMillis;
    private final Counter releasedAtEnd;
    private final Map<String, Counter> findings = new HashMap<>();
    private final Map<String, HistorySize> histories = new ConcurrentHashMap<>();
    private final Set<String> foundTypes = new TreeSet<>();
    private volatile Set<String> ruledOut = Set.of();

    CheckerMetrics(MetricGroup operatorGroup, CheckerOptions options) {
        this.group = operatorGroup.addGroup(GROUP);
        this.checked = group.counter("transactions_checked");
        this.duplicates = group.counter("duplicate_events");
        this.late = group.counter("late_events");
        this.deadLetters = group.counter("dead_letters");
        this.restored = group.counter("restored_batches");
        this.evicted = group.counter("evicted_transactions");
        this.evictions = group.counter("evictions");
        this.rebuilds = group.counter("checker_rebuilds");
        this.unverifiable = group.counter("unverifiable_reads");
        this.protocolHistories = group.counter("agent_protocol_histories");
        this.protocolGivenUp = group.counter("agent_protocol_given_up");
        group.gauge("retained_events", (Gauge<Long>) () -> sum(h -> h.events));
        group.histogram("detection_delay_ms", delay);
        // The +Inf bucket and the count are one counter registered twice: the reporter reads each
        // metric on its own, so two counters could be scraped one alert apart.
        this.delayCount = new SimpleCounter();
        for (int i = 0; i < delayBuckets.length; i++) {
            String le = i < DELAY_BUCKETS.length ? bound(DELAY_BUCKETS[i]) : "+Inf";
            delayBuckets[i] = i < DELAY_BUCKETS.length
                    ? group.addGroup(BUCKET_LABEL, le).counter(DELAY_SECONDS + "_bucket")
                    : group.addGroup(BUCKET_LABEL, le).counter(DELAY_SECONDS + "_bucket", delayCount);
        }
        // The key group the buckets' value groups hang from (Flink hands back the group of that
        // name): without a value there is no le label, but the name is the buckets' base.
        MetricGroup family = group.addGroup(BUCKET_LABEL);
        family.counter(DELAY_SECONDS + "_count", delayCount);
        family.gauge(DELAY_SECONDS + "_sum", (Gauge<Double>) () -> delaySumMillis / 1000.0);
        this.releasedAtEnd = group.counter(RELEASED_AT_END);
        group.gauge("graph_transactions", (Gauge<Long>) () -> sum(h -> h.graphTransactions));
        group.gauge("graph_edges", (Gauge<Long>) () -> sum(h -> h.graphEdges));
        for (String model : ConsistencyModels.modelNames()) {
            if (ConsistencyModels.canonicalModel(model).equals(model)) {
                group.addGroup("model", model).gauge("ruled_out", (Gauge<Integer>) () -> ruledOut.contains(model) ? 1 : 0);
            }
        }
    }

    private long sum(ToLongFunction<HistorySize> size) {
        long total = 0;
        for (HistorySize h : histories.values()) {
            total += size.applyAsLong(h);
        }
        return total;
    }

    /** The sizes of one history (registering its gauges the first time this task sees it). */
    HistorySize history(String name) {
        return histories.computeIfAbsent(name, n -> {
            HistorySize h = new HistorySize();
            MetricGroup g = group.addGroup("history", n);
            g.gauge("retained_events", (Gauge<Long>) () -> h.events);
            g.gauge("graph_transactions", (Gauge<Long>) () -> h.graphTransactions);
            return h;
        });
    }

    /** Transactions newly checked, and reads the checker could not attribute because their writer was evicted. */
    void checked(long transactions, long unverifiableReads) {
        checked.inc(transactions);
        unverifiable.inc(unverifiableReads);
    }

    /** A finding alerted now. */
    void found(Finding finding) {
        findings.computeIfAbsent(finding.type().elleName(), t -> group.addGroup("anomaly", t).counter("findings")).inc();
        seen(finding);
    }

    /** A finding met again while a checker is rebuilt: it still rules models out. */
    void seen(Finding finding) {
        String type = finding.type().elleName();
        if (foundTypes.add(type)) {
            ruledOut = ConsistencyModels.impossibleModels(foundTypes);
        }
    }

    /** An alert leaves: its delay, when known, and whether it waited for the end of its history. */
    void delay(Alert alert) {
        if (alert.releasedAtEnd()) {
            releasedAtEnd.inc();
        }
        if (!alert.hasDetectionDelay()) {
            return;
        }
        long millis = alert.detectionDelayMillis();
        delay.update(millis);
        for (int i = 0; i < DELAY_BUCKETS.length; i++) {
            if (millis <= DELAY_BUCKETS[i] * 1000) {
                delayBuckets[i].inc();
            }
        }
        delayCount.inc(); // also the +Inf bucket
        delaySumMillis += millis;
    }

    /** A bucket's bound as its {@code le} label: {@code 0.05}, {@code 1}, {@code 60}. */
    static String bound(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }

    /** Alerts counted in each delay bucket, cumulative, {@code +Inf} last; for tests. */
    long[] delayBuckets() {
        long[] out = new long[delayBuckets.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = delayBuckets[i].getCount();
        }
        return out;
    }

    long releasedAtEnd() {
        return releasedAtEnd.getCount();
    }

    void duplicate() {
        duplicates.inc();
    }

    void late() {
        late.inc();
    }

    /** A history began under the agent protocol ({@code followed}), or gave it up. */
    void agentProtocol(boolean followed) {
        (followed ? protocolHistories : protocolGivenUp).inc();
    }

    void deadLetter() {
        deadLetters.inc();
    }

    long duplicates() {
        return duplicates.getCount();
    }

    long lateEvents() {
        return late.getCount();
    }

    long deadLetters() {
        return deadLetters.getCount();
    }

    /** A checker forgot its oldest transactions, this many. */
    void evicted(long evictedTransactions) {
        evicted.inc(evictedTransactions);
        evictions.inc();
    }

    /** A checker was rebuilt with a fresh string table. */
    void rebuilt() {
        rebuilds.inc();
    }

    long rebuilds() {
        return rebuilds.getCount();
    }

    long evictions() {
        return evictions.getCount();
    }

    void restored(long batches) {
        restored.inc(batches);
    }

    /** The models the findings so far rule out, canonical names. */
    Set<String> ruledOut() {
        return ruledOut;
    }
}
