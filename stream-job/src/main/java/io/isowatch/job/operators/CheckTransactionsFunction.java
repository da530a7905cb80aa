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
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

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

    /** Events waiting for the watermark, by sequence. Cleared as the watermark releases them. */
    public static final String PENDING_EVENTS = "pending-events";
    /** Every released batch, by release number: the checker's input, replayed after a restore. */
    public static final String CHECKED_BATCHES = "checked-batches";
    /** How many batches {@value #CHECKED_BATCHES} holds. */
    public static final String CHECKED_BATCH_COUNT = "checked-batch-count";
    /** The first index {@value #CHECKED_BATCHES} holds once the history has been cut; absent before. */
    public static final String HISTORY_CUT = "history-cut";

    /** Batches written by a cut hold at most this many events, to keep state values small. */
    static final int CUT_BATCH = 4096;

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
    private final long retentionMillis;

    private transient MapState<Long, HistoryEvent> pending;
    private transient MapState<Long, List<HistoryEvent>> checked;
    private transient ValueState<Long> batchCount;
    private transient ValueState<Long> historyCut;

    private transient CheckerMetrics metrics;
    /** The checker of each history this task owns, on the heap; rebuilt from state after a restore. */
    private transient Map<String, Live> live;
    /** Where findings go while a batch is fed; null while replaying after a restore. */
    private transient Collector<Alert> alerts;
    private transient long nowMillis;

    /**
     * @param retention event time a history's transactions are kept for: once the watermark is
     *                  a retention past the last cut, the history is cut at watermark minus
     *                  retention ({@link HistoryCut}) and the checker rebuilt from what remains.
     *                  Zero keeps everything (exactly {@code check}'s answers, unbounded memory).
     */
    public CheckTransactionsFunction(CheckerOptions options, Duration retention) {
        this.options = Objects.requireNonNull(options, "options");
        this.retentionMillis = retention.toMillis();
    }

    @Override
    public void open(OpenContext openContext) {
        pending = getRuntimeContext().getMapState(new MapStateDescriptor<>(PENDING_EVENTS,
                Types.LONG, JobTypes.HISTORY_EVENT));
        checked = getRuntimeContext().getMapState(new MapStateDescriptor<>(CHECKED_BATCHES,
                Types.LONG, Types.LIST(JobTypes.HISTORY_EVENT)));
        batchCount = getRuntimeContext().getState(new ValueStateDescriptor<>(CHECKED_BATCH_COUNT, Types.LONG));
        historyCut = getRuntimeContext().getState(new ValueStateDescriptor<>(HISTORY_CUT, Types.LONG));
        live = new HashMap<>();
        metrics = new CheckerMetrics(getRuntimeContext().getMetricGroup(), options, () -> {
            long events = 0;
            for (Live h : live.values()) {
                events += h.retainedEvents;
            }
            return events;
        });
    }

    /** One history's checker, how far its events have been released, and the findings alerted. */
    private final class Live {
        final String history;
        final IncrementalChecker checker;
        /**
         * Findings alerted, by id, with the smallest history index among their transactions: the
         * checker may reach one finding from two closing edges, or again after a cut; it is
         * alerted once. A cut forgets the ids of findings it cut into, which cannot recur.
         */
        final Map<String, Long> alerted;
        long releasedUpTo = Long.MIN_VALUE;
        long lastCut;
        long retainedEvents;
        boolean endTimerRegistered;
        /**
         * {@value #PENDING_EVENTS} mirrored on the heap in sequence order (the recorder's, in which
         * times do not decrease), so a release takes events from the head instead of scanning
         * the whole state: a partition running ahead of another can leave many events waiting.
         */
        TreeMap<Long, HistoryEvent> waiting = new TreeMap<>();

        Live(String history, boolean truncated, Map<String, Long> alerted, long lastCut) {
            this.history = history;
            this.alerted = alerted;
            this.lastCut = lastCut;
            this.checker = JobAtoms.locked(atoms -> new IncrementalChecker(options, atoms, this::found));
            if (truncated) {
                checker.historyTruncated();
            }
        }

        /** The checker's finding listener; runs inside {@link JobAtoms#locked}. */
        private void found(Finding finding) {
            String id = JobAtoms.locked(atoms -> FindingId.of(finding, atoms, history));
            long first = Long.MAX_VALUE;
            for (io.isowatch.anomaly.Txn t : finding.txns()) {
                first = Math.min(first, t.invokeIndex());
            }
            if (alerted.putIfAbsent(id, first) != null) {
                return;
            }
            if (alerts == null) {
                metrics.seen(finding); // replaying: alerted before the checkpoint or the cut
                return;
            }
            metrics.found(finding);
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
        Live history = history(ctx.getCurrentKey());
        history.waiting.put(event.sequence(), event);
        pending.put(event.sequence(), event);
        ctx.timerService().registerEventTimeTimer(ts);
        if (!history.endTimerRegistered) {
            // Fires only when a bounded input ends; once per checker, not per event.
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
            history.endTimerRegistered = true;
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Alert> out) throws Exception {
        Live history = history(ctx.getCurrentKey());
        long watermark = ctx.timerService().currentWatermark();
        if (history.lastCut == Long.MIN_VALUE) {
            history.lastCut = watermark; // retention counts from the first release
        }
        if (watermark > history.releasedUpTo) {
            // The first timer of a watermark advance releases everything the advance covers; the
            // others of the same advance find nothing left.
            history.releasedUpTo = watermark;
            release(history, watermark, ctx, out);
            // The final watermark of a bounded input (Long.MAX_VALUE) settles; it never cuts.
            if (retentionMillis > 0 && watermark != Long.MAX_VALUE && watermark - history.lastCut >= retentionMillis) {
                history = cut(history, watermark);
            }
        }
        if (timestamp == Long.MAX_VALUE) {
            emitVerdict(history.checker, ctx, out);
            live.remove(ctx.getCurrentKey());
        }
    }

    private void release(Live history, long watermark, OnTimerContext ctx, Collector<Alert> out)
            throws Exception {
        List<HistoryEvent> batch = new ArrayList<>();
        while (!history.waiting.isEmpty() && EventTime.of(history.waiting.firstEntry().getValue()) <= watermark) {
            HistoryEvent e = history.waiting.pollFirstEntry().getValue();
            pending.remove(e.sequence());
            batch.add(e);
        }
        if (batch.isEmpty()) {
            return;
        }
        batch.sort(ORDER);
        long n = batchCount.value() == null ? 0 : batchCount.value();
        checked.put(n, batch);
        batchCount.update(n + 1);
        history.retainedEvents += batch.size();
        alerts = out;
        nowMillis = ctx.timerService().currentProcessingTime();
        feed(history.checker, batch, ctx);
        alerts = null;
    }

    /**
     * Cuts the history at {@code watermark - retention}: keeps the events from the cut on (state
     * rewritten in batches of {@value #CUT_BATCH}) and rebuilds the checker from them, muted.
     * Costs a replay of one retention's worth of events, once per retention of event time.
     */
    private Live cut(Live history, long watermark) throws Exception {
        history.lastCut = watermark;
        List<HistoryEvent> all = checkedEvents();
        HistoryCut cut = HistoryCut.at(all, watermark - retentionMillis);
        if (cut == null) {
            return history;
        }
        checked.clear();
        long batches = 0;
        for (int from = 0; from < cut.kept().size(); from += CUT_BATCH) {
            checked.put(batches++, new ArrayList<>(cut.kept().subList(from, Math.min(cut.kept().size(), from + CUT_BATCH))));
        }
        batchCount.update(batches);
        historyCut.update(cut.index());
        Map<String, Long> stillPossible = new HashMap<>();
        history.alerted.forEach((id, first) -> {
            if (first >= cut.index()) {
                stillPossible.put(id, first);
            }
        });
        Live rebuilt = new Live(history.history, true, stillPossible, watermark);
        rebuilt.releasedUpTo = history.releasedUpTo;
        rebuilt.waiting = history.waiting;
        rebuilt.retainedEvents = cut.kept().size();
        feed(rebuilt.checker, cut.kept(), null);
        live.put(history.history, rebuilt);
        metrics.cut(cut.evicted());
        return rebuilt;
    }

    private List<HistoryEvent> checkedEvents() throws Exception {
        List<HistoryEvent> all = new ArrayList<>();
        Long count = batchCount.value();
        for (long i = 0; count != null && i < count; i++) {
            all.addAll(checked.get(i));
        }
        return all;
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
        h = new Live(key, historyCut.value() != null, new HashMap<>(), Long.MIN_VALUE);
        Long count = batchCount.value();
        for (long i = 0; count != null && i < count; i++) {
            List<HistoryEvent> batch = checked.get(i);
            feed(h.checker, batch, null);
            h.retainedEvents += batch.size();
        }
        for (Map.Entry<Long, HistoryEvent> e : pending.entries()) {
            h.waiting.put(e.getKey(), e.getValue());
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
        // A replay (restore or cut) re-feeds transactions already counted.
        metrics.checked(ctx == null ? 0 : checker.transactions() - before, checker.graph());
    }

    /** Settles the history at the end of a bounded input: what settling proves is alerted too. */
    private void emitVerdict(IncrementalChecker checker, OnTimerContext ctx, Collector<Alert> out) {
        alerts = out;
        nowMillis = ctx.timerService().currentProcessingTime();
        String json = JobAtoms.locked(atoms -> {
            Verdict v = checker.finish();
            return VerdictJson.toJson(v, atoms, Double.NaN);
        });
        alerts = null;
        ctx.output(VERDICTS, Tuple2.of(ctx.getCurrentKey(), json));
    }
}
