package io.isowatch.job.operators;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.FindingId;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.HistoryViolationException;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.HistoryVerdict;
import io.isowatch.job.serde.JobTypes;
import io.isowatch.sinks.Alert;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The checker of the job, one operator per history: drops re-sent events, puts a history's events
 * back in the agent's order, holds processes to Jepsen's protocol ({@link ProcessGate}) and feeds
 * what passes to the core's {@link IncrementalChecker}, which keeps the per-key version traces
 * and the dependency graph, searches each cycle an edge closes, and reports findings; each
 * finding leaves as a rendered {@link Alert}.
 *
 * <p><b>Why one task per history.</b> A cycle may run through any keys, so a history's graph is
 * one serial point (DESIGN.md); keeping the traces in the same task means an edge never travels
 * and the job runs the very code {@code isowatch check} runs, so the two cannot disagree. A
 * history is one agent's events ({@link AgentHistoryKey}): its recorder numbers them densely
 * and stamps them from one clock, which is the order the checker needs. Histories of different
 * agents are checked apart, in parallel (decisions 0005, 0006, 0010).
 *
 * <p><b>Order.</b> Events wait in {@value #PENDING_EVENTS} and leave by {@link ReleaseOrder}'s
 * rules: a run that continues the agent's numbering after a linger of {@value #LINGER_MILLIS}
 * ms, which makes one {@value #CHECKED_BATCHES} entry of it; anything else when the watermark
 * passes it. So any arrival order within {@code max-out-of-orderness} gives the same input to the
 * checker, in index order. An event whose time runs behind a lower index already checked breaks
 * that order; the checker rejects it to the dead letters.
 *
 * <p><b>Duplicates and late events.</b> {@code (agent, sequence)} identifies an event. A copy of
 * an event still waiting, or at or below the highest sequence let go in its process, is dropped
 * and counted ({@code duplicate_events}). An event behind the watermark, or whose sequence a
 * release has already passed over, goes to {@link #LATE_EVENTS}, counted, never dropped
 * silently. Once a process's progress expires ({@code dedupe-retention} of event time after its
 * last event), a very late copy is reported as late instead, which is still visible.
 *
 * <p><b>State and recovery.</b> The checker lives on the heap; what it has seen is kept in
 * {@value #CHECKED_BATCHES}, one entry per release, numbered. After a restore the first timer or
 * element rebuilds the checker by replaying those batches with its findings muted (they were
 * emitted before the checkpoint), so a finding is reported once per history, plus at most a
 * repeat of what the sinks received after the last checkpoint; alerts carry stable ids for that
 * case.
 *
 * <p><b>Bounded state: checker generations.</b> With a {@code history-retention} R, a history
 * has up to two checkers. The current one alerts. Once the watermark has moved R past the last
 * rotation, a successor starts, fed every batch from then on (a history cut there: it skips the
 * completions of transactions invoked before it, and reads of what it never saw are only
 * counted); after another R it replaces the current checker, whose older batches leave the state
 * one by one. So the checker alerting always knows between R and 2R of the history, the state
 * holds at most 2R of events, nothing is ever replayed or rewritten while running, and each
 * event costs two checker steps instead of one. A checker that misses old transactions can only
 * miss edges, never invent one ({@code TruncatedHistoryProperties} in the core).
 *
 * <p><b>End of input.</b> A bounded source ends with the final watermark; the timer at
 * {@code Long.MAX_VALUE} then settles the checker and emits its typed verdict on
 * {@link #VERDICTS}.
 */
public final class CheckTransactionsFunction extends KeyedProcessFunction<String, HistoryEvent, Alert>
        implements CheckpointedFunction {

    private static final long serialVersionUID = 1L;

    /** Events waiting for the watermark, a list per history (operator state, written at checkpoints; {@link WaitingEvents}). */
    public static final String PENDING_EVENTS = "pending-event-queues";
    /** Released batches by number: the checkers' input, replayed after a restore. */
    public static final String CHECKED_BATCHES = "checked-batches";
    /** How many batches were ever released: the number the next one gets. */
    public static final String CHECKED_BATCH_COUNT = "checked-batch-count";
    /** The first batch of the current checker; absent means 0 (the history's start). */
    public static final String CHECKER_FROM_BATCH = "checker-from-batch";
    /** The first batch of the successor checker; absent while there is none. */
    public static final String SUCCESSOR_FROM_BATCH = "successor-from-batch";
    /** The watermark of the last rotation, so a restored history rotates when it would have. */
    public static final String LAST_ROTATION = "last-rotation";
    /** The history's next sequence: where the contiguous rule resumes after a restore. */
    public static final String NEXT_SEQUENCE = "next-sequence";

    /** Processing time a contiguous run waits before it is checked, so that it makes one batch of many events. */
    public static final long LINGER_MILLIS = ReleaseOrder.LINGER_MILLIS;

    /** The final verdict of a bounded input, one per history. */
    public static final OutputTag<HistoryVerdict> VERDICTS = new OutputTag<>("verdicts", JobTypes.HISTORY_VERDICT);
    /** Events that break the protocol (double invocation, reuse after info) or that the checker rejected. */
    public static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("dead-letters", JobTypes.DEAD_LETTER);
    /** Events that arrived behind the watermark, or after a release passed over their sequence. */
    public static final OutputTag<HistoryEvent> LATE_EVENTS = new OutputTag<>("late-events", JobTypes.HISTORY_EVENT);
    /** The events fed to the checker, in its order; emitted only by {@link #emittingCheckedEvents} (tests, debugging). */
    public static final OutputTag<HistoryEvent> CHECKED_EVENTS = new OutputTag<>("checked-events", JobTypes.HISTORY_EVENT);

    /**
     * The checker's order within a release: the recorder's index (all events of a key share one
     * agent). Releases follow event time, so a history whose times follow its indices, as the
     * recorder's do, enters the checker exactly in index order.
     */
    static final Comparator<HistoryEvent> ORDER = Comparator.comparingLong((HistoryEvent e) -> e.op().index());

    private final CheckerOptions options;
    private final long retentionMillis;
    private final long dedupeRetentionMillis;
    private boolean emitCheckedEvents;

    private transient ProcessGate gate;
    private transient WaitingEvents<String> waitingEvents;
    private transient MapState<Long, List<HistoryEvent>> checked;
    private transient ValueState<Long> batchCount;
    private transient ValueState<Long> checkerFromBatch;
    private transient ValueState<Long> successorFromBatch;
    private transient ValueState<Long> lastRotation;
    private transient ValueState<Long> nextSequence;

    private transient CheckerMetrics metrics;
    /** The models' names as alerts carry them, sorted once. */
    private transient List<String> modelNames;
    /** The checkers of each history this task owns, on the heap; rebuilt from state after a restore. */
    private transient Map<String, Live> live;
    /** Where findings go while a batch is fed; null while replaying after a restore. */
    private transient Collector<Alert> alerts;
    private transient long nowMillis;

    /**
     * @param retention       event time a history's transactions are kept for at least: the
     *                        checker that alerts knows between one and two retentions of the
     *                        history (see the class comment). Zero keeps everything (exactly
     *                        {@code check}'s answers, unbounded memory).
     * @param dedupeRetention event time a process's progress (by which re-sent copies are
     *                        recognised) outlives its latest event
     */
    public CheckTransactionsFunction(CheckerOptions options, Duration retention, Duration dedupeRetention) {
        this.options = Objects.requireNonNull(options, "options");
        this.retentionMillis = retention.toMillis();
        this.dedupeRetentionMillis = dedupeRetention.toMillis();
    }

    /** Also emits every event fed to the checker on {@link #CHECKED_EVENTS}; call before the job runs. */
    public CheckTransactionsFunction emittingCheckedEvents() {
        emitCheckedEvents = true;
        return this;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        waitingEvents = new WaitingEvents<>(PENDING_EVENTS, new AgentHistoryKey(), key -> key);
        waitingEvents.initialize(context, getRuntimeContext().getTaskInfo());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        waitingEvents.snapshot();
    }

    @Override
    public void open(OpenContext openContext) {
        checked = getRuntimeContext().getMapState(new MapStateDescriptor<>(CHECKED_BATCHES,
                Types.LONG, Types.LIST(JobTypes.HISTORY_EVENT)));
        batchCount = getRuntimeContext().getState(new ValueStateDescriptor<>(CHECKED_BATCH_COUNT, Types.LONG));
        checkerFromBatch = getRuntimeContext().getState(new ValueStateDescriptor<>(CHECKER_FROM_BATCH, Types.LONG));
        successorFromBatch = getRuntimeContext().getState(new ValueStateDescriptor<>(SUCCESSOR_FROM_BATCH, Types.LONG));
        lastRotation = getRuntimeContext().getState(new ValueStateDescriptor<>(LAST_ROTATION, Types.LONG));
        nextSequence = getRuntimeContext().getState(new ValueStateDescriptor<>(NEXT_SEQUENCE, Types.LONG));
        gate = new ProcessGate(dedupeRetentionMillis, getRuntimeContext());
        live = new HashMap<>();
        metrics = new CheckerMetrics(getRuntimeContext().getMetricGroup(), options);
        modelNames = ConsistencyModel.names(options.consistencyModels());
    }

    /** One checker of a history, the strings it has seen, and the first batch it was fed. */
    private final class Generation {
        /**
         * The string keys and values this checker has seen, which the events' string atoms are
         * re-coded into: one table per checker, owned by this task, so a retired checker's strings
         * leave with it. (One table per history, shared by its checkers, grew for as long as the
         * history ran: every distinct string value ever appended stayed.)
         */
        final AtomTable atoms = new AtomTable();
        final IncrementalChecker checker;
        final long firstBatch;
        /** The smallest index fed to it; a finding with an older transaction cannot recur in it. */
        long firstIndex = Long.MAX_VALUE;

        /** @param listener told each finding with the generation that made it */
        Generation(long firstBatch, BiConsumer<Generation, Finding> listener) {
            this.firstBatch = firstBatch;
            this.checker = new IncrementalChecker(options, atoms, finding -> listener.accept(this, finding));
            if (firstBatch > 0) {
                checker.historyTruncated();
            }
        }
    }

    /** One history's checkers, how far its events have been released, and the findings alerted. */
    private final class Live {
        final String history;
        final CheckerMetrics.HistorySize size;
        Generation current;
        /** Fed alongside the current checker to replace it at the next rotation; null until the first. */
        Generation successor;
        /**
         * Findings alerted, by id, with the smallest history index among their transactions: the
         * checker may reach one finding from two closing edges; it is alerted once. A rotation
         * forgets the ids of findings older than the new current checker, which cannot recur.
         */
        final Map<String, Long> alerted = new HashMap<>();
        /** The batches the state holds, oldest first: (number, events, invocations). */
        final ArrayDeque<long[]> batches = new ArrayDeque<>();
        long nextBatch;
        long lastRotation = Long.MIN_VALUE;
        /** The highest sequence fed; where the contiguous rule resumes after a restore. */
        long lastSequence = ReleaseOrder.NONE;
        long retainedEvents;
        boolean endTimerRegistered;
        /**
         * The history's events waiting for the watermark, in sequence order (the recorder's, in
         * which times do not decrease), so a release takes events from the head.
         */
        final SequenceQueue waiting;
        /** Which waiting events may enter the checkers now. */
        final ReleaseOrder order;
        /** The processes' highest sequences let go, mirrored from the gate's state. */
        final ProcessGate.Mirror progress = new ProcessGate.Mirror();

        /** @param currentFrom the current checker's first batch, also the next batch it is fed */
        Live(String history, long currentFrom) {
            this.history = history;
            this.waiting = waitingEvents.of(history);
            this.order = new ReleaseOrder(waiting);
            this.size = metrics.history(history);
            this.current = new Generation(currentFrom, this::found);
            this.nextBatch = currentFrom;
        }

        /**
         * The checkers' finding listener. Only the current checker alerts: the successor sees a subset of its transactions, so what it finds the
         * current checker has found too.
         */
        private void found(Generation by, Finding finding) {
            if (by != current) {
                return;
            }
            String id = FindingId.of(finding, by.atoms, history);
            long first = Long.MAX_VALUE;
            for (io.isowatch.anomaly.Txn t : finding.txns()) {
                first = Math.min(first, t.invokeIndex());
            }
            if (alerted.putIfAbsent(id, first) != null) {
                return;
            }
            if (alerts == null) {
                metrics.seen(finding); // replaying after a restore: alerted before the checkpoint
                return;
            }
            metrics.found(finding);
            Alert alert = Alert.of(finding, history, modelNames, nowMillis,
                    Alert.delayMillis(finding, nowMillis), by.atoms);
            metrics.delay(alert);
            alerts.collect(alert);
        }

        /** Starts the successor; it takes batches from the next one on. */
        void startSuccessor() {
            successor = new Generation(nextBatch, this::found);
        }

        /**
         * The successor becomes the current checker; the batches only the old one saw leave the
         * state. Returns the transactions forgotten (invocations in those batches).
         */
        long promoteSuccessor() throws Exception {
            long evicted = 0;
            while (!batches.isEmpty() && batches.peekFirst()[0] < successor.firstBatch) {
                long[] b = batches.pollFirst();
                checked.remove(b[0]);
                retainedEvents -= b[1];
                evicted += b[2];
            }
            current = successor;
            successor = null;
            long oldest = current.firstIndex;
            alerted.values().removeIf(first -> first < oldest);
            return evicted;
        }

        /** Feeds one batch to both checkers; {@code ctx} is null while replaying, which mutes dead letters. */
        void feed(List<HistoryEvent> batch, long number, Context ctx) {
            int invocations = 0;
            long firstSequence = Long.MAX_VALUE;
            for (HistoryEvent e : batch) {
                if (e.op().type() == OpType.INVOKE) {
                    invocations++;
                }
                firstSequence = Math.min(firstSequence, e.sequence());
                lastSequence = Math.max(lastSequence, e.sequence());
            }
            if (number == 0 && current.firstBatch == 0 && firstSequence > 0) {
                // Agents number a history from 0: one whose first event comes later was joined
                // mid-way (starting offsets, expired Kafka segments), so reads of what was written
                // before are not garbage. It is checked as a history cut at its first event.
                current.checker.historyTruncated();
            }
            batches.addLast(new long[] {number, batch.size(), invocations});
            retainedEvents += batch.size();
            nextBatch = number + 1;
            long before = current.checker.transactions();
            long unverifiable = current.checker.unverifiableReads();
            for (HistoryEvent e : batch) {
                accept(current, e, e.opIn(current.atoms), ctx);
                if (successor != null) {
                    // Its own table: re-coding costs only an event with strings (opIn returns
                    // any other op as it is). What it rejects, the current checker reports.
                    accept(successor, e, e.opIn(successor.atoms), null);
                }
            }
            // A replay after a restore re-feeds transactions already counted.
            if (ctx != null) {
                metrics.checked(current.checker.transactions() - before,
                        current.checker.unverifiableReads() - unverifiable);
            }
            size.update(retainedEvents + waiting.size(), current.checker.graph());
        }

        private void accept(Generation g, HistoryEvent e, Op op, Context ctx) {
            g.firstIndex = Math.min(g.firstIndex, op.index());
            try {
                g.checker.accept(op);
            } catch (HistoryViolationException bad) {
                if (ctx != null) {
                    metrics.deadLetter();
                    ctx.output(DEAD_LETTERS, DeadLetter.of(DeadLetter.Kind.MALFORMED_HISTORY, bad.getMessage(), e));
                }
            }
        }
    }

    @Override
    public void processElement(HistoryEvent event, Context ctx, Collector<Alert> out) throws Exception {
        Live history = history(ctx.getCurrentKey());
        if (history.order.isWaiting(event.sequence()) || gate.isResent(history.progress, event)) {
            metrics.duplicate();
            return;
        }
        if (history.order.isBehind(event.sequence()) || EventTime.of(event) <= ctx.timerService().currentWatermark()) {
            metrics.late();
            ctx.output(LATE_EVENTS, event);
            return;
        }
        history.order.add(event, ctx.timerService());
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
        List<HistoryEvent> run = history.order.take(ctx.timeDomain(), timestamp, watermark);
        if (watermark != Long.MIN_VALUE && history.lastRotation == Long.MIN_VALUE) {
            history.lastRotation = watermark; // retention counts from the first release under a watermark
            lastRotation.update(watermark);
        }
        if (!run.isEmpty()) {
            List<HistoryEvent> batch = gate.admit(run, history.progress, (kind, e, message) -> {
                metrics.deadLetter();
                ctx.output(DEAD_LETTERS, DeadLetter.of(kind, message, e));
            }, ctx.timerService());
            nextSequence.update(history.order.next());
            release(history, batch, ctx, out);
        } else if (ctx.timeDomain() == TimeDomain.EVENT_TIME && timestamp != Long.MAX_VALUE) {
            gate.expire(history.progress, timestamp);
        }
        // The final watermark of a bounded input (Long.MAX_VALUE) settles; it never rotates.
        if (retentionMillis > 0 && history.lastRotation != Long.MIN_VALUE && watermark != Long.MAX_VALUE
                && watermark - history.lastRotation >= retentionMillis) {
            rotate(history, watermark);
        }
        if (timestamp == Long.MAX_VALUE && ctx.timeDomain() == TimeDomain.EVENT_TIME) {
            emitVerdict(history, ctx, out);
            live.remove(ctx.getCurrentKey());
            waitingEvents.remove(ctx.getCurrentKey());
            history.size.clear();
            return;
        }
        history.order.scheduleFallback(ctx.timerService());
    }

    private void release(Live history, List<HistoryEvent> batch, OnTimerContext ctx, Collector<Alert> out)
            throws Exception {
        if (batch.isEmpty()) {
            return;
        }
        batch.sort(ORDER);
        if (emitCheckedEvents) {
            for (HistoryEvent e : batch) {
                ctx.output(CHECKED_EVENTS, e);
            }
        }
        long number = history.nextBatch;
        checked.put(number, batch);
        batchCount.update(number + 1);
        alerts = out;
        nowMillis = ctx.timerService().currentProcessingTime();
        history.feed(batch, number, ctx);
        alerts = null;
    }

    /**
     * Once per retention of event time: the successor (if any) replaces the current checker and
     * a new successor starts with the next batch.
     */
    private void rotate(Live history, long watermark) throws Exception {
        history.lastRotation = watermark;
        lastRotation.update(watermark);
        if (history.successor != null) {
            metrics.cut(history.promoteSuccessor());
            checkerFromBatch.update(history.current.firstBatch);
        }
        history.startSuccessor();
        successorFromBatch.update(history.successor.firstBatch);
    }

    /**
     * The current history's checkers, created on first use; after a restore, rebuilt by
     * replaying the checked batches with findings and dead letters muted.
     */
    private Live history(String key) throws Exception {
        Live h = live.get(key);
        if (h != null) {
            return h;
        }
        long next = batchCount.value() == null ? 0 : batchCount.value();
        long from = checkerFromBatch.value() == null ? 0 : checkerFromBatch.value();
        h = new Live(key, from);
        Long successorFrom = successorFromBatch.value();
        for (long i = from; i < next; i++) {
            if (successorFrom != null && i == successorFrom) {
                h.startSuccessor();
            }
            h.feed(checked.get(i), i, null);
        }
        h.nextBatch = next;
        if (successorFrom != null && h.successor == null) {
            h.startSuccessor(); // started at the last rotation, no batch released since
        }
        h.lastRotation = lastRotation.value() == null ? Long.MIN_VALUE : lastRotation.value();
        Long resumeAt = nextSequence.value();
        if (resumeAt != null) {
            h.order.resumeAt(resumeAt);
        } else if (h.lastSequence != ReleaseOrder.NONE) {
            h.order.resumeAt(h.lastSequence + 1); // state of a release before next-sequence was kept here
        }
        metrics.restored(next - from);
        live.put(key, h);
        return h;
    }

    /** The operator's metrics, for tests. */
    CheckerMetrics metrics() {
        return metrics;
    }

    /** Strings known to the checkers of every history this task holds, for tests. */
    long stringAtoms() {
        long n = 0;
        for (Live h : live.values()) {
            n += h.current.atoms.stringCount() + (h.successor == null ? 0 : h.successor.atoms.stringCount());
        }
        return n;
    }

    /** Settles the history at the end of a bounded input: what settling proves is alerted too. */
    private void emitVerdict(Live history, OnTimerContext ctx, Collector<Alert> out) {
        alerts = out;
        nowMillis = ctx.timerService().currentProcessingTime();
        Verdict v = history.current.checker.finish();
        HistoryVerdict verdict = HistoryVerdict.of(history.history, v, history.current.atoms);
        alerts = null;
        ctx.output(VERDICTS, verdict);
    }
}
