package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;
import io.isowatch.history.OpType;
import io.isowatch.history.ProcessFault;
import io.isowatch.history.codec.JsonLinesWriter;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.serde.JobTypes;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Stage 1 of the checker: per agent (one history), drops re-sent events, puts events back in the
 * agent's order, and pairs each completion with its invocation in the same process. Its output
 * is the history's events that passed, in sequence order: each invocation as it is released,
 * then its completion. Emitting the invocation without waiting for its completion lets the
 * checker place it exactly in time (realtime order needs to know which transactions were open
 * when another completed).
 *
 * <p><b>Order and release.</b> Events wait in {@value #BUFFERED_EVENTS} and leave in sequence
 * order by the rules of {@link ReleaseOrder}: at once (after a linger of {@value #LINGER_MILLIS}
 * ms that groups state writes) when they continue the agent's dense numbering without a gap, and
 * otherwise when the watermark passes their time. So any arrival order within
 * {@code max-out-of-orderness} gives the same pairs, and an in-order stream is checked without
 * waiting for the bound. An event whose time is already behind the watermark when it arrives,
 * or whose sequence a release has already passed over, is late: it goes to
 * {@link #LATE_EVENTS} and is counted, never dropped silently.
 *
 * <p><b>Duplicates.</b> {@code (agent, sequence)} identifies an event. A copy of an event still
 * buffered, or at or below the highest sequence released in its process
 * ({@value #PROCESS_PROGRESS}), is dropped and counted. Once a process's progress expires
 * ({@code dedupe-retention} of event time after its last transaction), a very late copy is
 * reported as late instead, which is still visible.
 *
 * <p><b>Protocol faults</b> go to {@link #DEAD_LETTERS} with a message, are counted, and never
 * throw: an invocation while another is pending (the new one is dropped; the first one stays and
 * pairs with the next completion), an invocation or a completion after an info completion
 * (dropped; Jepsen retires a process after info). A completion without a pending invocation is
 * not a fault: it is released, and the checker takes it, as Elle does, for a transaction invoked
 * at an unknown time.
 *
 * <p><b>State</b> (see docs/state.md): per agent, a process's pending invocation and progress
 * (maps by process) and the next sequence; a process's entries go once its last transaction has
 * completed and {@code dedupe-retention} has passed in event time, the agent's once no process
 * is left. Cost per event: O(log n) on the agent's heap buffer and a heap lookup of the
 * process's released sequence; state is read and written once per release and process, not
 * per event.
 */
public final class PairCompletionsFunction extends KeyedProcessFunction<String, HistoryEvent, HistoryEvent>
        implements CheckpointedFunction {

    private static final long serialVersionUID = 1L;

    /** Events waiting for release, a list per agent (operator state, written at checkpoints; {@link WaitingEvents}). */
    public static final String BUFFERED_EVENTS = "buffered-event-queues";
    /** Per process, the invocation waiting for its completion. Removed when the completion is released. */
    public static final String PENDING_INVOCATION = "pending-invocations";
    /** Per process, {@link ProcessProgress}: highest released sequence, retirement. Removed by timer after retention. */
    public static final String PROCESS_PROGRESS = "process-progresses";
    /** The agent's next sequence: the release after it takes the contiguous rule. Absent until the first release. */
    public static final String NEXT_SEQUENCE = "next-sequence";

    /** Processing time a contiguous run waits before it leaves, so a release writes state for many events. */
    public static final long LINGER_MILLIS = ReleaseOrder.LINGER_MILLIS;

    /** Protocol faults (double invocation, reuse after info). */
    public static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("dead-letters", JobTypes.DEAD_LETTER);
    /** Events that arrived behind the watermark. */
    public static final OutputTag<HistoryEvent> LATE_EVENTS = new OutputTag<>("late-events", JobTypes.HISTORY_EVENT);

    public static final String METRIC_DUPLICATES = "duplicateEvents";
    public static final String METRIC_LATE = "lateEvents";
    public static final String METRIC_DEAD_LETTERS = "protocolDeadLetters";
    public static final String METRIC_COMPLETED = "completedTransactions";

    private final long retentionMillis;

    /** Per agent, the events waiting for release, in sequence order, on the heap. */
    private transient WaitingEvents<String> buffered;
    private transient MapState<Long, HistoryEvent> pendingInvocations;
    private transient MapState<Long, ProcessProgress> progress;
    private transient ValueState<Long> nextSequence;
    /** The heap side of each agent this task has seen since it started: release order, released sequences. */
    private transient Map<String, Agent> agents;

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
        buffered = new WaitingEvents<>(BUFFERED_EVENTS, new AgentHistoryKey(), key -> key);
        buffered.initialize(context, getRuntimeContext().getTaskInfo());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        buffered.snapshot();
    }

    @Override
    public void open(OpenContext openContext) {
        pendingInvocations = getRuntimeContext().getMapState(
                new MapStateDescriptor<>(PENDING_INVOCATION, Types.LONG, JobTypes.HISTORY_EVENT));
        progress = getRuntimeContext().getMapState(
                new MapStateDescriptor<>(PROCESS_PROGRESS, Types.LONG, JobTypes.PROCESS_PROGRESS));
        nextSequence = getRuntimeContext().getState(new ValueStateDescriptor<>(NEXT_SEQUENCE, Types.LONG));
        duplicates = getRuntimeContext().getMetricGroup().counter(METRIC_DUPLICATES);
        late = getRuntimeContext().getMetricGroup().counter(METRIC_LATE);
        deadLetters = getRuntimeContext().getMetricGroup().counter(METRIC_DEAD_LETTERS);
        completed = getRuntimeContext().getMetricGroup().counter(METRIC_COMPLETED);
        agents = new HashMap<>();
    }

    /** One agent's heap side; rebuilt from state on first use after a restore. */
    private static final class Agent {
        final ReleaseOrder order;
        /**
         * Per process, the highest released sequence: {@link #progress} mirrored on the heap so
         * the duplicate check costs no state read per event. Filled on first use, kept in step
         * wherever the progress is written, dropped with it.
         */
        final Map<Long, Long> releasedUpTo = new HashMap<>();

        Agent(ReleaseOrder order) {
            this.order = order;
        }
    }

    private Agent agent(String key) throws Exception {
        Agent a = agents.get(key);
        if (a == null) {
            a = new Agent(new ReleaseOrder(buffered.of(key)));
            Long next = nextSequence.value();
            if (next != null) {
                a.order.resumeAt(next);
            }
            agents.put(key, a);
        }
        return a;
    }

    @Override
    public void processElement(HistoryEvent event, Context ctx, Collector<HistoryEvent> out) throws Exception {
        Agent a = agent(ctx.getCurrentKey());
        if (event.sequence() <= releasedUpTo(a, event.op().process()) || a.order.isWaiting(event.sequence())) {
            duplicates.inc();
            return;
        }
        if (a.order.isBehind(event.sequence()) || EventTime.of(event) <= ctx.timerService().currentWatermark()) {
            late.inc();
            ctx.output(LATE_EVENTS, event);
            return;
        }
        a.order.add(event, ctx.timerService());
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<HistoryEvent> out) throws Exception {
        String key = ctx.getCurrentKey();
        Agent a = agent(key);
        List<HistoryEvent> released = a.order.take(ctx.timeDomain(), timestamp, ctx.timerService().currentWatermark());
        if (!released.isEmpty()) {
            release(a, released, ctx, out);
        } else if (ctx.timeDomain() == TimeDomain.EVENT_TIME) {
            expire(key, a, timestamp);
        }
        a.order.scheduleFallback(ctx.timerService());
    }

    /** Pairs a run of events in sequence order, reading and writing each touched process's state once. */
    private void release(Agent a, List<HistoryEvent> events, OnTimerContext ctx, Collector<HistoryEvent> out)
            throws Exception {
        Map<Long, Released> touched = new HashMap<>();
        long latest = Long.MIN_VALUE;
        for (HistoryEvent e : events) {
            long process = e.op().process();
            Released r = touched.get(process);
            if (r == null) {
                r = new Released(progress.get(process), pendingInvocations.get(process));
                touched.put(process, r);
            }
            release(e, r, ctx, out);
            latest = Math.max(latest, EventTime.of(e));
        }
        for (Map.Entry<Long, Released> t : touched.entrySet()) {
            Released r = t.getValue();
            if (r.pending == null) {
                pendingInvocations.remove(t.getKey());
            } else {
                pendingInvocations.put(t.getKey(), r.pending);
            }
            progress.put(t.getKey(), r.progress);
            a.releasedUpTo.put(t.getKey(), r.progress.lastSequence());
        }
        nextSequence.update(a.order.next());
        // Expiry timers are not moved (deleting the old one needed to know it): a stale one fires
        // and finds the progress newer. Rounding up to a sixteenth of the retention keeps them to
        // about sixteen per agent, whatever the release rate.
        ctx.timerService().registerEventTimeTimer(expiry(latest));
    }

    /** Drops the progress of processes quiet for the retention; the agent's state goes with its last process. */
    private void expire(String key, Agent a, long timestamp) throws Exception {
        List<Long> expired = new ArrayList<>();
        boolean anyLeft = false;
        for (Map.Entry<Long, ProcessProgress> p : progress.entries()) {
            if (timestamp >= expiry(p.getValue().lastTimestamp()) && !pendingInvocations.contains(p.getKey())) {
                expired.add(p.getKey());
            } else {
                anyLeft = true;
            }
        }
        for (Long process : expired) {
            progress.remove(process);
            a.releasedUpTo.remove(process);
        }
        if (!anyLeft && a.order.isEmpty() && !expired.isEmpty()) {
            nextSequence.clear();
            agents.remove(key);
            buffered.remove(key);
        }
    }

    /** The process's highest released sequence, -1 before its first release. */
    private long releasedUpTo(Agent a, long process) throws Exception {
        Long upTo = a.releasedUpTo.get(process);
        if (upTo == null) {
            ProcessProgress p = progress.get(process);
            if (p == null) {
                return -1; // not cached: a process that never releases must not stay in the map
            }
            upTo = p.lastSequence();
            a.releasedUpTo.put(process, upTo);
        }
        return upTo;
    }

    /** What releasing a run of events changes in one process, written to state once at the end. */
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
        ProcessFault fault = ProcessFault.of(type, pending != null, retired);
        if (fault == ProcessFault.DOUBLE_INVOCATION) {
            deadLetter(ctx, DeadLetter.Kind.DOUBLE_INVOCATION, event, "process " + event.op().process()
                    + " of agent " + event.source() + " invoked again (seq " + event.sequence()
                    + ") while its invocation seq " + pending.sequence()
                    + " is still pending; the second invocation is dropped");
        } else if (fault == ProcessFault.REUSED_AFTER_INFO) {
            String what = type == OpType.INVOKE ? "invoked again" : "completed a transaction";
            deadLetter(ctx, DeadLetter.Kind.PROCESS_REUSED_AFTER_INFO, event, "process " + event.op().process()
                    + " of agent " + event.source() + " " + what + " (seq " + event.sequence()
                    + ") after an info completion; Jepsen retires a process after info, so the "
                    + (type == OpType.INVOKE ? "invocation" : "completion") + " is dropped");
        } else if (type == OpType.INVOKE) {
            r.pending = event;
            out.collect(event);
        } else {
            // A completion without a pending invocation (its invocation never came, was late or
            // was dropped) passes too: the checker takes it as Elle does, for a transaction
            // invoked at an unknown time.
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
        try (JsonLinesWriter w = new JsonLinesWriter(bytes, event.atoms())) {
            w.write(event.op());
        }
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
