package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where to cut a history's checked events so the checker can forget what is older than the
 * retention, and what remains: the events from the cut index on, less the completions of
 * transactions invoked before it (their invocations are gone, so they leave with them).
 *
 * <p>The cut is the first event later than {@code cutTime}, moved back to the oldest invocation
 * still open there, so no transaction that was running at the cut loses its invocation. A
 * checker fed the rest with {@code historyTruncated()} sees a sub-history: fewer transactions and
 * edges, never an edge the whole history lacks (TruncatedHistoryProperties in the core).
 *
 * @param index     the first index kept
 * @param kept      the events kept, in order
 * @param evicted   transactions forgotten (invocations before the cut)
 */
record HistoryCut(long index, List<HistoryEvent> kept, long evicted) {

    /**
     * Cuts {@code events} (one history, in index order) at {@code cutTimeMillis}; null when
     * nothing would be dropped.
     */
    static HistoryCut at(List<HistoryEvent> events, long cutTimeMillis) {
        Map<Long, Long> openInvocations = new HashMap<>();
        int first = events.size();
        for (int i = 0; i < events.size(); i++) {
            HistoryEvent e = events.get(i);
            if (EventTime.of(e) > cutTimeMillis) {
                first = i;
                break;
            }
            track(openInvocations, e);
        }
        if (first == 0) {
            return null;
        }
        long cut = first < events.size() ? events.get(first).op().index() : Long.MAX_VALUE;
        for (long invoked : openInvocations.values()) {
            cut = Math.min(cut, invoked);
        }
        if (cut <= events.get(0).op().index()) {
            return null;
        }
        Map<Long, Long> cutOff = new HashMap<>();
        List<HistoryEvent> kept = new ArrayList<>(events.size() - first + openInvocations.size() * 2);
        long evicted = 0;
        for (HistoryEvent e : events) {
            long process = e.op().process();
            if (e.op().index() < cut) {
                if (e.op().type() == OpType.INVOKE) {
                    evicted++;
                }
                track(cutOff, e);
            } else if (e.op().type() != OpType.INVOKE && cutOff.remove(process) != null) {
                continue; // completes a transaction whose invocation was cut off
            } else {
                kept.add(e);
            }
        }
        return new HistoryCut(cut, kept, evicted);
    }

    private static void track(Map<Long, Long> open, HistoryEvent e) {
        if (e.op().type() == OpType.INVOKE) {
            open.put(e.op().process(), e.op().index());
        } else {
            open.remove(e.op().process());
        }
    }
}
