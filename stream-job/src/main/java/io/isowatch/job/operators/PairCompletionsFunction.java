package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;
import io.isowatch.history.OpType;
import io.isowatch.history.codec.JsonLinesWriter;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.serde.JobAtoms;
import io.isowatch.job.serde.JobTypes;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Stage 1 of the checker: per (agent, process), drops re-sent events, puts events back in the
 * agent's order, and pairs each completion with its invocation. Its output is the process's
 * events that passed: each invocation as the watermark passes it, then its completion. Emitting
 * the invocation without waiting for its completion lets the checker place it exactly in time
 * (realtime order needs to know which transactions were open when another completed).
 *
 * <p><b>Order.</b> Events wait in {@value #BUFFERED_EVENTS} until the watermark passes their
 * event time, then are released in sequence order (the agent's own order, exact within a
 * process). So any arrival order within {@code max-out-of-orderness} gives the same pairs. An
 * event whose time is already behind the watermark when it arrives is late: it goes to
 * {@link #LATE_EVENTS} and is counted, never dropped silently.
 *
 * <p><b>Duplicates.</b> {@code (agent, sequence)} identifies an event. A copy of an event still
 * buffered, or at or below the highest sequence released ({@value #PROCESS_PROGRESS}), is
 * dropped and counted. Once the progress state expires ({@code dedupe-retention} of event time
 * after the process's last transaction), a very late copy is reported as late instead, which is
 * still visible.
 *
 * <p><b>Protocol faults</b> go to {@link #DEAD_LETTERS} with a message, are counted, and never
 * throw: a completion without a pending invocation (dropped), an invocation while another is
 * pending (the new one is dropped; the first one stays and pairs with the next completion), an
 * invocation after an info completion (dropped; Jepsen retires a process after info).
 *
 * <p><b>State</b> (see docs/state.md): every state is empty again once the process's last
 * transaction has completed and {@code dedupe-retention} has passed in event time. Cost per
 * event: O(log n) on the key's heap buffer and a heap lookup of the released sequence; the
 * progress and the pending invocation are read and written once per release, not per event.
 */
public final class PairCompletionsFunction extends KeyedProcessFunction<Tuple2<String, Long>, HistoryEvent, HistoryEvent>
        implements CheckpointedFunction {

    private static final long serialVersionUID = 1L;

    /** Events waiting for the watermark, a list per process (operator state, written at checkpoints; {@link WaitingEvents}). */
    public static final String BUFFERED_EVENTS = "buffered-event-queues";
    /** The same with one element per event, as earlier versions wrote it; read on restore. */
    static final String BUFFERED_EVENTS_LEGACY = "buffered-events";
    /** The invocation waiting for its completion. Cleared when the completion is released. */
    public static final String PENDING_INVOCATION = "pending-invocation";
    /** {@link ProcessProgress}: highest released sequence, retirement. Cleared by timer after retention. */
    public static final String PROCESS_PROGRESS = "process-progress";

    /** Protocol faults (orphan completion, double invocation, reuse after info). */
    public static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("dead-letters", JobTypes.DEAD_LETTER);
    /** Events that arrived behind the watermark. */
    public static final OutputTag<HistoryEvent> LATE_EVENTS = new OutputTag<>("late-events", JobTypes.HISTORY_EVENT);

    public static final String METRIC_DUPLICATES = "duplicateEvents";
    public static final String METRIC_LATE = "lateEvents";
    public static final String METRIC_DEAD_LETTERS = "protocolDeadLetters";
    public static final String METRIC_COMPLETED = "completedTransactions";

    private final long retentionMillis;

    /** Per key, the events waiting for the watermark, in sequence order, on the heap. */
    private transient WaitingEvents<Tuple2<String, Long>> buffered;
    private transient ValueState<HistoryEvent> pendingInvocation;
    private transient ValueState<ProcessProgress> progress;
    /**
     * Per key, the highest released sequence: {@link #progress} mirrored on the heap so the
     * duplicate check costs no state read per event. Filled on first use (after a restore too),
     * kept in step wherever the progress is written, dropped with it.
     */
    private transient Map<Tuple2<String, Long>, Long> releasedUpTo;

    private transient Counter duplicates;
    private transient Counter late;
    private transient Counter deadLetters;
    private transient Counter completed;

    /** @param dedupeRetention event time the per-process progress outlives its last transaction */
    public PairCompletionsFunction(Duration dedupeRetention) {
        this.retentionMillis = dedupeRetention.toMillis();
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        buffered = new WaitingEvents<>(BUFFERED_EVENTS, BUFFERED_EVENTS_LEGACY, new ProcessKeySelector(), PairCompletionsFunction::copy);
        buffered.initialize(context, getRuntimeContext().getTaskInfo());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        buffered.snapshot();
    }

    @Override
    public void open(OpenContext openContext) {
        pendingInvocation = getRuntimeContext().getState(
                new ValueStateDescriptor<>(PENDING_INVOCATION, JobTypes.HISTORY_EVENT));
        progress = getRuntimeContext().getState(
                new ValueStateDescriptor<>(PROCESS_PROGRESS, JobTypes.PROCESS_PROGRESS));
        duplicates = getRuntimeContext().getMetricGroup().counter(METRIC_DUPLICATES);
        late = getRuntimeContext().getMetricGroup().counter(METRIC_LATE);
        deadLetters = getRuntimeContext().getMetricGroup().counter(METRIC_DEAD_LETTERS);
        completed = getRuntimeContext().getMetricGroup().counter(METRIC_COMPLETED);
        releasedUpTo = new HashMap<>();
    }

    @Override
    public void processElement(HistoryEvent event, Context ctx, Collector<HistoryEvent> out) throws Exception {
        Tuple2<String, Long> key = ctx.getCurrentKey();
        TreeMap<Long, HistoryEvent> buffer = buffered.of(key);
        if (event.sequence() <= releasedUpTo(key) || buffer.containsKey(event.sequence())) {
            duplicates.inc();
            return;
        }
        long ts = EventTime.of(event);
        if (ts <= ctx.timerService().currentWatermark()) {
            late.inc();
            ctx.output(LATE_EVENTS, event);
            return;
        }
        buffer.put(event.sequence(), event);
        ctx.timerService().registerEventTimeTimer(ts);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<HistoryEvent> out) throws Exception {
        // A watermark advance fires one timer per distinct buffered time; the first releases all
        // the advance covers, the others find nothing due at the head.
        long watermark = Math.max(timestamp, ctx.timerService().currentWatermark());
        Tuple2<String, Long> key = ctx.getCurrentKey();
        TreeMap<Long, HistoryEvent> buffer = buffered.of(key);
        ProcessProgress before = progress.value();
        if (!buffer.isEmpty() && EventTime.of(buffer.firstEntry().getValue()) <= watermark) {
            Released r = new Released(before, pendingInvocation.value());
            while (!buffer.isEmpty() && EventTime.of(buffer.firstEntry().getValue()) <= watermark) {
                release(buffer.pollFirstEntry().getValue(), r, ctx, out);
            }
            if (r.pending == null) {
                pendingInvocation.clear();
            } else {
                pendingInvocation.update(r.pending);
            }
            progress.update(r.progress);
            if (releasedUpTo.replace(key, r.progress.lastSequence()) == null) {
                releasedUpTo.put(copy(key), r.progress.lastSequence()); // a key object is copied once, not per release
            }
            // Expiry timers are not moved (deleting the old one needed a scan of the buffer): a
            // stale one fires and finds the progress newer. Rounding up to a sixteenth of the
            // retention keeps them to about sixteen per key, whatever the release rate.
            long newExpiry = expiry(r.progress.lastTimestamp());
            ctx.timerService().registerEventTimeTimer(newExpiry);
            return;
        }
        if (buffer.isEmpty() && before != null && pendingInvocation.value() == null
                && timestamp >= expiry(before.lastTimestamp())) {
            progress.clear();
            releasedUpTo.remove(key);
            buffered.remove(key);
        }
    }

    /** The key's highest released sequence, -1 before its first release. */
    private long releasedUpTo(Tuple2<String, Long> key) throws Exception {
        Long upTo = releasedUpTo.get(key);
        if (upTo == null) {
            ProcessProgress p = progress.value();
            if (p == null) {
                return -1; // not cached: a key that never releases must not stay in the map
            }
            upTo = p.lastSequence();
            releasedUpTo.put(copy(key), upTo);
        }
        return upTo;
    }

    /** Flink may reuse the key object it hands out; a key kept on the heap is a copy. */
    private static Tuple2<String, Long> copy(Tuple2<String, Long> key) {
        return Tuple2.of(key.f0, key.f1);
    }

    /** What releasing a run of events changes, written to state once at the end. */
    private static final class Released {
        ProcessProgress progress;
        HistoryEvent pending;

        Released(ProcessProgress progress, HistoryEvent pending) {
            this.progress = progress;
            this.pending = pending;
        }
    }

    /** Handles one event in the agent's order. */
    private void release(HistoryEvent event, Released r, OnTimerContext ctx, Collector<HistoryEvent> out) {
        ProcessProgress before = r.progress;
        boolean retired = before != null && before.retired();
        HistoryEvent pending = r.pending;
        OpType type = event.op().type();
        if (type == OpType.INVOKE) {
            if (retired) {
                deadLetter(ctx, DeadLetter.Kind.PROCESS_REUSED_AFTER_INFO, event, "process " + event.op().process()
                        + " of agent " + event.source() + " invoked again (seq " + event.sequence()
                        + ") after an info completion; Jepsen retires a process after info, so the invocation is dropped");
            } else if (pending != null) {
                deadLetter(ctx, DeadLetter.Kind.DOUBLE_INVOCATION, event, "process " + event.op().process()
                        + " of agent " + event.source() + " invoked again (seq " + event.sequence()
                        + ") while its invocation seq " + pending.sequence()
                        + " is still pending; the second invocation is dropped");
            } else {
                r.pending = event;
                out.collect(event);
            }
        } else if (pending == null) {
            deadLetter(ctx, DeadLetter.Kind.ORPHAN_COMPLETION, event, "completion \"" + type.jepsenName()
                    + "\" (seq " + event.sequence() + ") of process " + event.op().process() + " of agent "
                    + event.source() + " has no pending invocation; it is dropped");
        } else {
            r.pending = null;
            completed.inc();
            out.collect(event);
            retired = retired || type == OpType.INFO;
        }
        long ts = EventTime.of(event);
        long lastTs = before == null ? ts : Math.max(before.lastTimestamp(), ts);
        long lastSeq = before == null ? event.sequence() : Math.max(before.lastSequence(), event.sequence());
        r.progress = new ProcessProgress(lastSeq, lastTs, retired);
    }

    /** When the progress may go: {@code dedupe-retention} after the last event, rounded up to a sixteenth of it. */
    private long expiry(long lastTimestamp) {
        long step = Math.max(1, retentionMillis / 16);
        if (lastTimestamp > Long.MAX_VALUE - retentionMillis - step) {
            return Long.MAX_VALUE;
        }
        long at = lastTimestamp + retentionMillis;
        return Math.floorDiv(at + step - 1, step) * step;
    }

    private void deadLetter(OnTimerContext ctx, DeadLetter.Kind kind, HistoryEvent event, String message) {
        deadLetters.inc();
        ctx.output(DEAD_LETTERS, DeadLetter.of(kind, message, render(event)));
    }

    /** The event as a JSON op map with agent and seq, for people reading dead letters. */
    public static String render(HistoryEvent event) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        JobAtoms.locked(atoms -> {
            try (JsonLinesWriter w = new JsonLinesWriter(bytes, atoms)) {
                w.write(event.op());
            }
            return null;
        });
        String op = bytes.toString(StandardCharsets.UTF_8).strip();
        return "{\"agent\":\"" + event.source().replace("\\", "\\\\").replace("\"", "\\\"") + "\",\"seq\":"
                + event.sequence() + ",\"op\":" + op + "}";
    }

    long duplicatesDropped() {
        return duplicates.getCount();
    }

    long lateEvents() {
        return late.getCount();
    }

    long protocolDeadLetters() {
        return deadLetters.getCount();
    }
}
