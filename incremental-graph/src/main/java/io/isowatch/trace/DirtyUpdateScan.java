package io.isowatch.trace;

import io.isowatch.collect.LongIntMap;

import java.util.Arrays;

/**
 * Elle's dirty-update rule for one list-append key, advanced as the order grows and writers'
 * outcomes become known: walking the version order, a committed append that follows an aborted
 * one, with only unknown outcomes between them, is a dirty update.
 *
 * <p>The walk stops at the first element whose writer is still pending (or unknown) until the
 * key settles, when those count as unknown outcomes. Each element is visited once: O(1)
 * amortised per append.
 *
 * <p>After an eviction some elements' writers are forgotten: their outcome is unknown here but
 * was known (or will be) to a checker that saw the whole history, which may have started or
 * ended a run there. So the walk goes past such an element <em>blind</em>: it reports nothing
 * until the next committed append, where every checker's walk is in the same state again.
 */
final class DirtyUpdateScan {

    private int next;
    private boolean anchorFailed;
    private int anchorTxn = -1;
    private int anchorPosition = -1;
    /** Whether a forgotten outcome lies between the last committed append and here. */
    private boolean blind;

    /** Walks on from where it stopped, reporting each dirty update to {@code out}. */
    void advance(ListAppendTrace trace, TxnStatus status, TraceListener out, boolean settling) {
        while (next < trace.orderSize()) {
            int q = next;
            long e = trace.orderAt(q);
            if (trace.positionOf(e) != q) {
                next++;
                continue;
            }
            int w = trace.writerOf(e);
            if (w == LongIntMap.MISSING && trace.writerForgotten(e)) {
                next++;
                blind = true;
                continue;
            }
            if ((w == LongIntMap.MISSING || status.pending(w)) && !settling) {
                return;
            }
            next++;
            if (w == LongIntMap.MISSING || !(status.committed(w) || status.failed(w))) {
                continue; // an unknown outcome neither starts nor ends a run
            }
            if (status.committed(w)) {
                if (anchorFailed && !blind) {
                    out.dirtyUpdate(trace.key(), Arrays.copyOfRange(trace.prefix(q + 1), anchorPosition, q + 1), anchorTxn, w);
                }
                anchorFailed = false;
                blind = false;
                anchorTxn = w;
                anchorPosition = q;
            } else if (!anchorFailed) {
                anchorFailed = true;
                anchorTxn = w;
                anchorPosition = q;
            }
        }
    }

    /**
     * Forgets the transactions below {@code cut}, renumbering the rest by {@code -cut}. A run
     * whose aborted anchor is forgotten could only be reported naming it: the walk goes on blind.
     */
    void evictBelow(int cut) {
        if (anchorTxn >= 0 && anchorTxn < cut) {
            blind |= anchorFailed;
            anchorTxn = -1;
        } else if (anchorTxn >= cut) {
            anchorTxn -= cut;
        }
    }
}
