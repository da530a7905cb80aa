package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;

import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.TimerService;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides which of a history's waiting events may leave, in the agent's sequence order. Two rules,
 * each safe on its own:
 *
 * <ul>
 *   <li><b>Contiguous</b>: the agent numbers its events densely, so once the event after the last
 *       one released has arrived, it and every waiting event that follows it without a gap can
 *       leave at once: nothing can still come before them. This is what makes an alert follow its
 *       evidence within milliseconds instead of after the out-of-orderness bound.</li>
 *   <li><b>Due</b>: once the watermark passes an event's time, nothing earlier can arrive within
 *       the bound, so the waiting events up to the watermark leave even across a gap (an event
 *       that never comes: dropped upstream as a protocol fault, or lost); the contiguous rule
 *       resumes after them.</li>
 *   <li><b>Start</b>: an agent numbers its history from {@value #FIRST_SEQUENCE}, so nothing can
 *       come before that event: a history whose first event has arrived starts contiguous at
 *       once. Any other first release waits for the watermark, because where the numbering
 *       stands is known only then (a job may join an agent mid-stream). Without this rule a
 *       history whose events all lie within the out-of-orderness bound, and which then goes
 *       quiet, would never be released: no later event moves the watermark past them.</li>
 * </ul>
 *
 * <p>Times follow sequence numbers within an agent (the recorder stamps both under one lock), so
 * the head of the queue is also its earliest event and one event-time timer at the head's time
 * is enough to release whatever waits: {@link #fallbackTimer} says when a new one is needed.
 * Heap only; the queue itself is checkpointed by {@link WaitingEvents}, and the owner keeps the
 * next sequence in state where a restore needs it.
 */
final class ReleaseOrder {

    /** No sequence known yet, or no timer registered. */
    static final long NONE = Long.MIN_VALUE;
    /** Processing time a contiguous run waits before it leaves, so that a release groups many events. */
    static final long LINGER_MILLIS = 50;
    /** The sequence of an agent's first event (the recorder counts from it, across restarts too). */
    static final long FIRST_SEQUENCE = 0;

    private final SequenceQueue waiting;
    private long next = NONE;
    private long fallbackAt = NONE;
    private boolean lingering;

    /** @param waiting the history's waiting events by sequence, shared with {@link WaitingEvents} */
    ReleaseOrder(SequenceQueue waiting) {
        this.waiting = waiting;
    }

    /** The sequence the next contiguous event must carry; {@link #NONE} while the numbering is unknown. */
    long next() {
        return next;
    }

    /** Sets the next sequence, as restored from state or rebuilt from a replay. */
    void resumeAt(long nextSequence) {
        this.next = nextSequence;
    }

    /** True if {@code sequence} was passed over by an earlier release (released, or skipped as a gap). */
    boolean isBehind(long sequence) {
        return next != NONE && sequence < next;
    }

    boolean isWaiting(long sequence) {
        return waiting.contains(sequence);
    }

    /**
     * Queues an event and says whether a contiguous run can now leave and no linger timer is
     * pending yet: the caller then registers one, and calls {@link #takeContiguous} when it fires.
     */
    boolean add(HistoryEvent event) {
        waiting.add(event);
        if (next == NONE && event.sequence() == FIRST_SEQUENCE) {
            next = FIRST_SEQUENCE;
        }
        if (event.sequence() == next && !lingering) {
            lingering = true;
            return true;
        }
        return false;
    }

    /**
     * Queues an event and registers the timers that will release it: the linger timer when it
     * starts a contiguous run, and the fallback timer the queue needs.
     */
    void add(HistoryEvent event, TimerService timers) {
        if (add(event)) {
            timers.registerProcessingTimeTimer(timers.currentProcessingTime() + LINGER_MILLIS);
        }
        scheduleFallback(timers);
    }

    /**
     * Removes and returns what a firing timer lets leave, in sequence order: a linger timer the
     * contiguous run; an event-time timer what the watermark has passed, then the run after it.
     */
    List<HistoryEvent> take(TimeDomain domain, long timestamp, long watermark) {
        if (domain == TimeDomain.PROCESSING_TIME) {
            return takeContiguous();
        }
        fired(timestamp);
        List<HistoryEvent> due = takeDue(Math.max(timestamp, watermark));
        due.addAll(takeContiguous());
        return due;
    }

    /** Registers the fallback timer the queue needs, if it has none at or before its head. */
    void scheduleFallback(TimerService timers) {
        long at = fallbackTimer();
        if (at != NONE) {
            timers.registerEventTimeTimer(at);
        }
    }

    /** Removes and returns the run that starts at the next sequence, in order (maybe empty). */
    List<HistoryEvent> takeContiguous() {
        lingering = false;
        List<HistoryEvent> run = new ArrayList<>();
        while (next != NONE) {
            HistoryEvent e = waiting.remove(next);
            if (e == null) {
                break;
            }
            run.add(e);
            next++;
        }
        return run;
    }

    /**
     * Removes and returns the events from the head whose time the watermark has passed, in
     * sequence order, gaps and all; the next sequence moves past the last of them. They may
     * close the gap before a run already waiting, so callers follow with {@link #takeContiguous}.
     */
    List<HistoryEvent> takeDue(long watermark) {
        List<HistoryEvent> due = new ArrayList<>();
        while (!waiting.isEmpty() && EventTime.of(waiting.first()) <= watermark) {
            HistoryEvent head = waiting.pollFirst();
            due.add(head);
            next = Math.max(next, head.sequence() + 1);
        }
        return due;
    }

    /**
     * The event time at which a fallback timer is needed so that every waiting event is released
     * by the watermark at the latest, or {@link #NONE} if one is already registered at or before
     * it (or nothing waits). The caller registers the returned time.
     */
    long fallbackTimer() {
        if (waiting.isEmpty()) {
            return NONE;
        }
        long head = EventTime.of(waiting.first());
        if (fallbackAt != NONE && fallbackAt <= head) {
            return NONE;
        }
        fallbackAt = head;
        return head;
    }

    /** Tells that the event-time timer at {@code time} fired. */
    void fired(long time) {
        if (time >= fallbackAt) {
            fallbackAt = NONE;
        }
    }

    boolean isEmpty() {
        return waiting.isEmpty();
    }
}
