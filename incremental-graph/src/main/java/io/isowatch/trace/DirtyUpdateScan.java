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
 * <p>Elle orders the key for this rule by its longest read of any client op, {@code :fail} ones
 * included ({@code sorted-values} over {@code h/client-ops}, list_append.clj 955-958), while
 * the order walked as events arrive follows {@code :ok} and {@code :info} reads, and stops
 * growing on a key whose reads disagree. So once the key settles, Elle's read is walked too
 * where it differs ({@link #walkRead}).
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
            visit(trace, w, q, null, status, out);
        }
    }

    /**
     * Once, when the key settles, after {@link #advance} has walked the whole order: walks
     * {@code read}, the read Elle's pass walks on this key, longer than the order or at odds
     * with it. When the order is a prefix of it, the walk goes on past the order's end.
     * Otherwise it starts afresh at the read's first element, and the dirty updates the walk of
     * the order reported are superseded: Elle's verdict has only the fresh walk's (they stay
     * reported, as every finding does; see docs/elle-compatibility.md). Repeated elements count
     * once, at their first place, as Elle's {@code distinct} keeps them.
     */
    void walkRead(ListAppendTrace trace, long[] read, boolean extendsOrder, TxnStatus status, TraceListener out) {
        int from = extendsOrder ? trace.orderSize() : 0;
        if (!extendsOrder) {
            out.dirtyUpdatesSuperseded(trace.key());
            anchorFailed = false;
            anchorTxn = -1;
            anchorPosition = -1;
            blind = false;
        }
        LongIntMap seen = new LongIntMap();
        for (int q = 0; q < read.length; q++) {
            long e = read[q];
            boolean repeat = seen.containsKey(e);
            if (!repeat) {
                seen.put(e, q);
            }
            if (q < from || repeat) {
                continue;
            }
            int w = trace.writerOf(e);
            if (w == LongIntMap.MISSING && trace.writerForgotten(e)) {
                blind = true;
                continue;
            }
            visit(trace, w, q, read, status, out);
        }
    }

    /**
     * One element, at {@code q}, of the walk, appended by {@code w} (or nobody known); the values
     * a report names are {@code read}'s, or the order's when {@code read} is null.
     */
    private void visit(ListAppendTrace trace, int w, int q, long[] read, TxnStatus status, TraceListener out) {
        if (w == LongIntMap.MISSING || !(status.committed(w) || status.failed(w))) {
            return; // an unknown outcome neither starts nor ends a run
        }
        if (status.committed(w)) {
            if (anchorFailed && !blind) {
                // Only the run is copied, so the reports along a long order cost their runs, not
                // the order's length each.
                long[] values = read != null ? Arrays.copyOfRange(read, anchorPosition, q + 1)
                        : trace.orderRange(anchorPosition, q + 1);
                out.dirtyUpdate(trace.key(), values, anchorTxn, w);
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
