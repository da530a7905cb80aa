package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;
import io.isowatch.history.OpType;
import io.isowatch.history.ProcessFault;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.serde.JobTypes;

import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.TimerService;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Jepsen's rules for the processes of one history, applied to each run the release order lets go,
 * before the checker sees it: a process runs one operation at a time, and an {@code :info}
 * completion retires it ({@link ProcessFault} states the rule; {@code check} refuses the same
 * ops). What breaks a rule leaves as a dead letter; the rest passes, in order. Per process it
 * remembers the pending invocation and the highest sequence let go, by which a re-sent copy is
 * recognised.
 *
 * <p><b>State</b> (keyed by history; docs/state.md): {@value #PENDING_INVOCATIONS} and
 * {@value #PROCESS_PROGRESS}, read and written once per run and process touched, not per event.
 * A heap mirror of each process's highest sequence ({@link Mirror}) makes the duplicate check
 * per event free. A process's entries expire {@code dedupe-retention} after its latest event once
 * it has no pending invocation; the expiry timers are rounded up to a sixteenth of the retention,
 * so a history has about sixteen at most, and are never moved (a stale one finds the progress
 * newer).
 */
final class ProcessGate {

    /** Per process, the invocation waiting for its completion. Removed when the completion passes. */
    static final String PENDING_INVOCATIONS = "pending-invocations";
    /** Per process, {@link ProcessProgress}: highest sequence let go, retirement. Removed by timer after retention. */
    static final String PROCESS_PROGRESS = "process-progresses";

    /** Receives the events that break a rule. */
    interface Faults {
        void deadLetter(DeadLetter.Kind kind, HistoryEvent event, String message);
    }

    /**
     * One history's heap mirror of {@link #PROCESS_PROGRESS}'s sequences: filled on first use
     * (also after a restore), kept in step wherever the progress is written, dropped with it.
     */
    static final class Mirror {
        private final Map<Long, Long> releasedUpTo = new HashMap<>();
    }

    private final long retentionMillis;
    private final MapState<Long, HistoryEvent> pendingInvocations;
    private final MapState<Long, ProcessProgress> progress;

    /**
     * @param dedupeRetention event time (ms) a process's progress outlives its latest event
     * @param context         the keyed operator's context, which holds the state
     */
    ProcessGate(long dedupeRetention, RuntimeContext context) {
        this.retentionMillis = dedupeRetention;
        pendingInvocations = context.getMapState(
                new MapStateDescriptor<>(PENDING_INVOCATIONS, Types.LONG, JobTypes.HISTORY_EVENT));
        progress = context.getMapState(
                new MapStateDescriptor<>(PROCESS_PROGRESS, Types.LONG, JobTypes.PROCESS_PROGRESS));
    }

    /** True if the event is a copy of one already let go (or refused) in its process. */
    boolean isResent(Mirror mirror, HistoryEvent event) throws Exception {
        long process = event.op().process();
        Long upTo = mirror.releasedUpTo.get(process);
        if (upTo == null) {
            ProcessProgress p = progress.get(process);
            if (p == null) {
                return false; // not mirrored: a process that never passes must not stay in the map
            }
            upTo = p.lastSequence();
            mirror.releasedUpTo.put(process, upTo);
        }
        return event.sequence() <= upTo;
    }

    /**
     * Judges a run in sequence order and returns what passes, in that order; registers the
     * progress's expiry timer.
     */
    List<HistoryEvent> admit(List<HistoryEvent> run, Mirror mirror, Faults faults, TimerService timers)
            throws Exception {
        Map<Long, Touched> touched = new HashMap<>();
        List<HistoryEvent> passed = new ArrayList<>(run.size());
        long latest = Long.MIN_VALUE;
        for (HistoryEvent e : run) {
            long process = e.op().process();
            Touched t = touched.get(process);
            if (t == null) {
                t = new Touched(progress.get(process), pendingInvocations.get(process));
                touched.put(process, t);
            }
            if (admit(e, t, faults)) {
                passed.add(e);
            }
            latest = Math.max(latest, EventTime.of(e));
        }
        for (Map.Entry<Long, Touched> entry : touched.entrySet()) {
            Touched t = entry.getValue();
            if (t.pending == null) {
                pendingInvocations.remove(entry.getKey());
            } else {
                pendingInvocations.put(entry.getKey(), t.pending);
            }
            progress.put(entry.getKey(), new ProcessProgress(t.lastSequence, t.lastTimestamp, t.retired));
            mirror.releasedUpTo.put(entry.getKey(), t.lastSequence);
        }
        timers.registerEventTimeTimer(expiry(latest));
        return passed;
    }

    /** Drops the progress of processes quiet for the retention and with nothing pending. */
    void expire(Mirror mirror, long timestamp) throws Exception {
        List<Long> expired = new ArrayList<>();
        for (Map.Entry<Long, ProcessProgress> p : progress.entries()) {
            if (timestamp >= expiry(p.getValue().lastTimestamp()) && !pendingInvocations.contains(p.getKey())) {
                expired.add(p.getKey());
            }
        }
        for (Long process : expired) {
            progress.remove(process);
            mirror.releasedUpTo.remove(process);
        }
    }

    /**
     * What a run changes in one process, written to state once at the end of the run: the
     * progress as plain fields, so judging an event allocates nothing.
     */
    private static final class Touched {
        /** False until the process has progress, from state or from an event of this run. */
        boolean known;
        long lastSequence;
        long lastTimestamp;
        boolean retired;
        HistoryEvent pending;

        Touched(ProcessProgress progress, HistoryEvent pending) {
            if (progress != null) {
                known = true;
                lastSequence = progress.lastSequence();
                lastTimestamp = progress.lastTimestamp();
                retired = progress.retired();
            }
            this.pending = pending;
        }
    }

    /** Judges one event in the history's order; true if it passes to the checker. */
    private static boolean admit(HistoryEvent event, Touched t, Faults faults) {
        boolean retired = t.retired;
        HistoryEvent pending = t.pending;
        OpType type = event.op().type();
        boolean passes = false;
        ProcessFault fault = ProcessFault.of(type, pending != null, retired);
        if (fault == ProcessFault.DOUBLE_INVOCATION) {
            faults.deadLetter(DeadLetter.Kind.DOUBLE_INVOCATION, event, "process " + event.op().process()
                    + " of agent " + event.source() + " invoked again (seq " + event.sequence()
                    + ") while its invocation seq " + pending.sequence()
                    + " is still pending; the second invocation is dropped");
        } else if (fault == ProcessFault.REUSED_AFTER_INFO) {
            String what = type == OpType.INVOKE ? "invoked again" : "completed a transaction";
            faults.deadLetter(DeadLetter.Kind.PROCESS_REUSED_AFTER_INFO, event, "process " + event.op().process()
                    + " of agent " + event.source() + " " + what + " (seq " + event.sequence()
                    + ") after an info completion; Jepsen retires a process after info, so the "
                    + (type == OpType.INVOKE ? "invocation" : "completion") + " is dropped");
        } else if (type == OpType.INVOKE) {
            t.pending = event;
            passes = true;
        } else {
            // A completion without a pending invocation (its invocation never came, was late or
            // was dropped) passes too: the checker takes it as Elle does, for a transaction
            // invoked at an unknown time.
            t.pending = null;
            passes = true;
            retired = retired || type == OpType.INFO;
        }
        long ts = EventTime.of(event);
        t.lastTimestamp = t.known ? Math.max(t.lastTimestamp, ts) : ts;
        t.lastSequence = t.known ? Math.max(t.lastSequence, event.sequence()) : event.sequence();
        t.retired = retired;
        t.known = true;
        return passes;
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
}
