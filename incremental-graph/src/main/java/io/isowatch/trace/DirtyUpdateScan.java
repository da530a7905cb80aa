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
 */
final class DirtyUpdateScan {

    private int next;
    private boolean anchorFailed;
    private int anchorTxn = -1;
    private int anchorPosition = -1;

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
            if ((w == LongIntMap.MISSING || status.pending(w)) && !settling) {
                return;
            }
            next++;
            if (w == LongIntMap.MISSING || !(status.committed(w) || status.failed(w))) {
                continue; // an unknown outcome neither starts nor ends a run
            }
            if (status.committed(w)) {
                if (anchorFailed) {
                    out.dirtyUpdate(trace.key(), Arrays.copyOfRange(trace.prefix(q + 1), anchorPosition, q + 1), anchorTxn, w);
                }
                anchorFailed = false;
                anchorTxn = w;
                anchorPosition = q;
            } else if (!anchorFailed) {
                anchorFailed = true;
                anchorTxn = w;
                anchorPosition = q;
            }
        }
    }
}
