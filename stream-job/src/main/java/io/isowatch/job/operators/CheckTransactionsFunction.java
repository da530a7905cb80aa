package io.isowatch.job.operators;

import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.FindingId;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.HistoryViolationException;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.explain.VerdictJson;
import io.isowatch.history.HistoryEvent;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.serde.JobAtoms;
import io.isowatch.job.serde.JobTypes;
import io.isowatch.sinks.Alert;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Stages 2 to 4 of the checker: puts the paired events of a history into one order and feeds
 * them to the core's {@link IncrementalChecker}, which keeps the per-key version traces and the
 * dependency graph, searches each cycle an edge closes, and reports findings; each finding
 * leaves as a rendered {@link Alert}.
 *
 * <p><b>Why one task per history.</b> A cycle may run through any keys, so a history's graph is
 * one serial point (DESIGN.md); keeping the traces in the same task means an edge never travels
 * and the job runs the very code {@code isowatch check} runs, so the two cannot disagree. A
 * history is one agent's events ({@link AgentHistoryKey}): its recorder numbers them densely
 * and stamps them from one clock, which is the order the checker needs. Histories of different
 * agents are checked apart, in parallel; the stages before this one scale out by process.
 *
 * <p><b>Order.</b> Stage 1 emits each event once the watermark has passed it, before forwarding
 * that watermark, so when this operator's watermark reaches {@code W} it has every event with a
 * time up to {@code W}. Events wait in {@value #PENDING_EVENTS} until then and enter the checker
 * in index order: the recorder's own order, whatever the arrival order and the upstream
 * parallelism. (An event whose time runs behind a lower index already checked breaks that
 * order; the checker rejects it to the dead letters.) An event already behind the watermark (which stage 1
 * prevents) goes to {@link #LATE_EVENTS}, counted.
 *
 * <p><b>State and recovery.</b> The checker lives on the heap; what it has seen is kept in
 * {@value #CHECKED_BATCHES}, one entry per release. After a restore the first timer or element
 * rebuilds the checker by replaying those batches with its findings muted (they were emitted
 * before the checkpoint), so a finding is reported once per history, plus at most a repeat of
 * what the sinks received after the last checkpoint; alerts carry stable ids for that case.
 * The log grows with the history: eviction of settled transactions is future work (issue 5).
 *
 * <p><b>End of input.</b> A bounded source ends with the final watermark; the timer at
 * {@code Long.MAX_VALUE} then settles the checker and emits the verdict as {@code check}'s JSON
 * on {@link #VERDICTS}.
 */
public final class CheckTransactionsFunction extends KeyedProcessFunction<String, HistoryEvent, Alert> {

    private static final long serialVersionUID = 1L;

    /** Events waiting for the watermark, by (agent, sequence). Cleared as the watermark releases them. */
    public static final String PENDING_EVENTS = "pending-events";
    /** Every released batch, by release number: the checker's input, replayed after a restore. */
    public static final String CHECKED_BATCHES = "checked-batches";
    /** How many batches {@value #CHECKED_BATCHES} holds. */
    public static final String CHECKED_BATCH_COUNT = "checked-batch-count";

    /** The final verdict of a bounded input: (history, verdict as {@code isowatch check --format json} prints it). */
    public static final OutputTag<Tuple2<String, String>> VERDICTS =
            new OutputTag<>("verdicts", Types.TUPLE(Types.STRING, Types.STRING));
    /** Events the checker rejected as malformed (index order broken, say). */
    public static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("checker-dead-letters", JobTypes.DEAD_LETTER);
    /** Events that arrived behind this operator's watermark. */
    public static final OutputTag<HistoryEvent> LATE_EVENTS = new OutputTag<>("checker-late-events", JobTypes.HISTORY_EVENT);

    /**
     * The checker's order within a release: the recorder's index (all events of a key share one
     * agent). Releases follow event time, so a history whose times follow its indices, as the
     * recorder's do, enters the checker exactly in index order.
     */
    static final Comparator<HistoryEvent> ORDER = Comparator.comparingLong((HistoryEvent e) -> e.op().index());

    private final CheckerOptions options;

    private transient MapState<Tuple2<String, Long>, HistoryEvent> pending;
    private transient MapState<Long, List<HistoryEvent>> checked;
    private transient ValueState<Long> batchCount;

    private transient CheckerMetrics metrics;
    /** The checker of each history this task owns, on the heap; rebuilt from state after a restore. */
    private transient Map<String, Live> live;
    /** Where findings go while a batch is fed; null while replaying after a restore. */
    private transient Collector<Alert> alerts;
    private transient long nowMillis;

    public CheckTransactionsFunction(CheckerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public void open(OpenContext openContext) {
        pending = getRuntimeContext().getMapState(new MapStateDescriptor<>(PENDING_EVENTS,
                Types.TUPLE(Types.STRING, Types.LONG), JobTypes.HISTORY_EVENT));
        checked = getRuntimeContext().getMapState(new MapStateDescriptor<>(CHECKED_BATCHES,
                Types.LONG, Types.LIST(JobTypes.HISTORY_EVENT)));
        batchCount = getRuntimeContext().getState(new ValueStateDescriptor<>(CHECKED_BATCH_COUNT, Types.LONG));
        metrics = new CheckerMetrics(getRuntimeContext().getMetricGroup(), options);
        live = new HashMap<>();
    }

    /** One history's checker, how far its events have been released, and the findings alerted. */
    private final class Live {
        final String history;
        final IncrementalChecker checker;
        /** The checker may reach one finding from two closing edges; it is alerted once. */
        final Set<String> alerted = new HashSet<>();
        long releasedUpTo = Long.MIN_VALUE;

        Live(String history) {
            this.history = history;
            this.checker = JobAtoms.locked(atoms -> new IncrementalChecker(options, atoms, this::found));
        }

        /** The checker's finding listener; runs inside {@link JobAtoms#locked}. */
        private void found(Finding finding) {
            String id = JobAtoms.locked(atoms -> FindingId.of(finding, atoms, history));
            if (!alerted.add(id)) {
                return;
            }
            metrics.found(finding);
            if (alerts == null) {
                return; // replaying after a restore: alerted before the checkpoint
            }
            Alert alert = JobAtoms.locked(atoms -> Alert.of(finding, history, options.consistencyModels(), nowMillis,
                    Alert.delayMillis(finding, nowMillis), atoms));
            metrics.delay(alert);
            alerts.collect(alert);
        }
    }

    @Override
    public void processElement(HistoryEvent event, Context ctx, Collector<Alert> out) throws Exception {
        long ts = EventTime.of(event);
        if (ts <= ctx.timerService().currentWatermark()) {
            metrics.late();
            ctx.output(LATE_EVENTS, event);
            return;
        }
        pending.put(Tuple2.of(event.source(), event.sequence()), event);
        ctx.timerService().registerEventTimeTimer(ts);
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Alert> out) throws Exception {
        Live history = history(ctx.getCurrentKey());
        long watermark = ctx.timerService().currentWatermark();
        if (watermark > history.releasedUpTo) {
            // The first timer of a watermark advance releases everything the advance covers; the
            // others of the same advance find nothing left.
            history.releasedUpTo = watermark;
            release(history.checker, watermark, ctx, out);
        }
        if (timestamp == Long.MAX_VALUE) {
            emitVerdict(history.checker, ctx);
            live.remove(ctx.getCurrentKey());
        }
    }

    private void release(IncrementalChecker checker, long watermark, OnTimerContext ctx, Collector<Alert> out)
            throws Exception {
        List<HistoryEvent> batch = new ArrayList<>();
        Iterator<Map.Entry<Tuple2<String, Long>, HistoryEvent>> it = pending.iterator();
        while (it.hasNext()) {
            HistoryEvent e = it.next().getValue();
            if (EventTime.of(e) <= watermark) {
                batch.add(e);
                it.remove();
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        batch.sort(ORDER);
        long n = batchCount.value() == null ? 0 : batchCount.value();
        checked.put(n, batch);
        batchCount.update(n + 1);
        alerts = out;
        nowMillis = ctx.timerService().currentProcessingTime();
        feed(checker, batch, ctx);
        alerts = null;
    }

    /**
     * The current history's checker, created on first use; after a restore, rebuilt by replaying
     * the checked batches with findings and dead letters muted.
     */
    private Live history(String key) throws Exception {
        Live h = live.get(key);
        if (h != null) {
            return h;
        }
        h = new Live(key);
        Long count = batchCount.value();
        for (long i = 0; count != null && i < count; i++) {
            feed(h.checker, checked.get(i), null);
        }
        metrics.restored(count == null ? 0 : count);
        live.put(key, h);
        return h;
    }

    /** Feeds one batch; {@code ctx} is null while replaying, which mutes dead letters as well. */
    private void feed(IncrementalChecker checker, List<HistoryEvent> batch, Context ctx) {
        long before = checker.transactions();
        JobAtoms.locked(atoms -> {
            for (HistoryEvent e : batch) {
                try {
                    checker.accept(e.op());
                } catch (HistoryViolationException bad) {
                    if (ctx != null) {
                        metrics.deadLetter();
                        ctx.output(DEAD_LETTERS, DeadLetter.of(DeadLetter.Kind.MALFORMED_HISTORY, bad.getMessage(),
                                PairCompletionsFunction.render(e)));
                    }
                }
            }
            return null;
        });
        metrics.checked(checker.transactions() - before, checker.graph());
    }

    private void emitVerdict(IncrementalChecker checker, OnTimerContext ctx) {
        String json = JobAtoms.locked(atoms -> {
            Verdict v = checker.finish();
            return VerdictJson.toJson(v, atoms, Double.NaN);
        });
        ctx.output(VERDICTS, Tuple2.of(ctx.getCurrentKey(), json));
    }
}
