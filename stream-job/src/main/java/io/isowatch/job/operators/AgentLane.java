package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;

/**
 * One agent's events within a history: the ones waiting for the agent's own order
 * ({@link ReleaseOrder}) and the ones that order has let go but the merge with the history's
 * other agents has not taken yet ({@link HistoryMerge}).
 *
 * <p>A history recorded by one agent has one lane, and the merge takes each event as soon as its
 * lane lets it go, so such a history is checked exactly as before agents could share one.
 *
 * <p>Times are op times (nanoseconds). A lane's <i>merge time</i> of an event is the largest
 * time among the lane's events up to it, so it never decreases along the agent's sequence even if
 * a producer's clock did: the merge order is then always consistent with the agent's own.
 */
final class AgentLane {

    /** No event yet. */
    static final long NONE = Long.MIN_VALUE;

    final String agent;
    /** Events waiting for the agent's order, by sequence (checkpointed by {@link WaitingEvents}). */
    final SequenceQueue waiting;
    /** Events the agent's order let go, by sequence, not yet merged (checkpointed too). */
    final SequenceQueue ready;
    final ReleaseOrder order;
    /** The merge time of the last event merged from this lane. */
    private long mergedTime = NONE;
    /** The largest time among the events put in {@link #ready}: no later event merges before it. */
    private long readyTime = NONE;
    /** The sequence after the last event merged: where the agent's order resumes after a restore. */
    private long mergedNext = ReleaseOrder.NONE;
    /** The event time (ms) of the newest event that arrived from this agent. */
    private long lastArrivalMillis = NONE;

    AgentLane(String agent, SequenceQueue waiting, SequenceQueue ready) {
        this.agent = agent;
        this.waiting = waiting;
        this.ready = ready;
        this.order = new ReleaseOrder(waiting);
    }

    void arrived(HistoryEvent e) {
        lastArrivalMillis = Math.max(lastArrivalMillis, EventTime.of(e));
    }

    long lastArrivalMillis() {
        return lastArrivalMillis;
    }

    /** Puts events the agent's order let go, in sequence order, behind those already ready. */
    void letGo(Iterable<HistoryEvent> run) {
        for (HistoryEvent e : run) {
            ready.add(e);
            readyTime = Math.max(readyTime, e.op().time());
        }
    }

    boolean hasReady() {
        return !ready.isEmpty();
    }

    /** The merge time of the next ready event; only while {@link #hasReady}. */
    long headMergeTime() {
        return Math.max(mergedTime, ready.first().op().time());
    }

    /** Takes the next ready event into the merge. */
    HistoryEvent merge() {
        HistoryEvent e = ready.pollFirst();
        mergedTime = Math.max(mergedTime, e.op().time());
        mergedNext = e.sequence() + 1;
        return e;
    }

    /** Records an event merged before a restore (a replay of the checked batches). */
    void merged(HistoryEvent e) {
        mergedTime = Math.max(mergedTime, e.op().time());
        mergedNext = Math.max(mergedNext, e.sequence() + 1);
        readyTime = Math.max(readyTime, mergedTime);
    }

    long mergedNext() {
        return mergedNext;
    }

    /**
     * A bound below which no event of this lane can merge from now on: what is ready or waiting
     * merges at its own time or later, and anything still to arrive lies beyond the watermark (or
     * is late). Only meaningful while nothing is ready.
     *
     * @param afterWatermark the first op time an event not yet arrived can carry without being late
     */
    long frontier(long afterWatermark) {
        long next = afterWatermark;
        if (!waiting.isEmpty()) {
            next = Math.min(next, waiting.first().op().time());
        }
        return Math.max(Math.max(mergedTime, readyTime), next);
    }

    /** Whether nothing of this agent is waiting or ready. */
    boolean isEmpty() {
        return waiting.isEmpty() && ready.isEmpty();
    }
}
