package io.isowatch.checker;

import io.isowatch.collect.IntList;
import io.isowatch.collect.LongIntMap;
import io.isowatch.graph.EdgeKind;

import java.util.Arrays;

/**
 * The session orders Elle adds to the dependency graph: realtime edges (its transitive reduction)
 * when a prohibited anomaly needs them, otherwise process edges between a process's consecutive
 * committed transactions when one needs those.
 *
 * <p>Realtime follows Elle's realtime-graph: a buffer of committed transactions not yet followed
 * by another committed one; each invocation is linked from every transaction in the buffer, and a
 * committed completion replaces its own predecessors in it. Events must come in index order (the
 * checker's reorder buffer sees to that). Cost: O(buffer) per transaction, the buffer being about
 * as large as the concurrency.
 */
final class SessionOrder {

    /** Receives the edges. */
    interface Links {
        void link(int from, int to, EdgeKind kind);
    }

    private final boolean realtime;
    private final boolean process;
    private final IntList buffer = new IntList();
    private int[][] predecessors = new int[1024][];
    private final LongIntMap lastCommitted = new LongIntMap();
    private boolean realtimeEdgeToFailed;

    SessionOrder(boolean realtime, boolean process) {
        this.realtime = realtime;
        this.process = process;
    }

    /** A transaction was invoked. */
    void invoked(int txn) {
        setPredecessors(txn, buffer);
    }

    /**
     * A transaction's completion came without its invocation: nothing is known to precede it in
     * real time (Elle's realtime-graph links only at invocations). Process order still holds.
     */
    void invokedAtUnknownTime(int txn) {
        setPredecessors(txn, null);
    }

    private void setPredecessors(int txn, IntList before) {
        if (realtime) {
            if (txn >= predecessors.length) {
                predecessors = Arrays.copyOf(predecessors,
                        Math.max(predecessors.length + (predecessors.length >> 1), txn + 1));
            }
            predecessors[txn] = before == null ? new int[0] : before.toArray();
        }
    }

    /** A transaction of {@code processId} completed with {@code outcome} (a {@link TxnTable} status). */
    void completed(int txn, long processId, byte outcome, Links out) {
        if (realtime) {
            int[] before = predecessors[txn];
            predecessors[txn] = null;
            if (outcome != TxnTable.FAIL) {
                for (int p : before) {
                    out.link(p, txn, EdgeKind.REALTIME);
                }
            } else if (before.length > 0) {
                // Elle links realtime predecessors to failed transactions too; such edges can
                // close no cycle, so they are not stored, but they make Elle's graph non-empty.
                realtimeEdgeToFailed = true;
            }
            if (outcome == TxnTable.OK) {
                for (int p : before) {
                    for (int i = 0; i < buffer.size(); i++) {
                        if (buffer.get(i) == p) {
                            buffer.swapRemove(i);
                            break;
                        }
                    }
                }
                buffer.add(txn);
            }
        }
        if (process && outcome == TxnTable.OK) {
            int previous = lastCommitted.put(processId, txn);
            if (previous != LongIntMap.MISSING) {
                out.link(previous, txn, EdgeKind.PROCESS);
            }
        }
    }

    /** Whether Elle's graph holds a realtime edge into a failed transaction (which isowatch does not store). */
    boolean linkedToFailed() {
        return realtimeEdgeToFailed;
    }
}
