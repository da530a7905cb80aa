package io.isowatch.checker;

import io.isowatch.collect.LongIntMap;
import io.isowatch.graph.EdgeKind;
import io.isowatch.graph.RealtimeEdges;

/**
 * The session orders Elle adds to the dependency graph: realtime edges (its transitive reduction)
 * when a prohibited anomaly needs them, otherwise process edges between a process's consecutive
 * committed transactions when one needs those.
 *
 * <p>Realtime follows Elle's realtime-graph: a buffer of committed transactions not yet followed
 * by another committed one; each invocation is linked from every transaction in the buffer, and a
 * committed completion replaces its own predecessors in it. The graph keeps the buffer and these
 * edges implicitly ({@link RealtimeEdges}); this class says when to link them. Events must come
 * in index order (the checker's reorder buffer sees to that). Cost: O(buffer) per transaction,
 * the buffer being about as large as the concurrency.
 */
final class SessionOrder {

    /** Receives the edges. */
    interface Links {
        void link(int from, int to, EdgeKind kind);
    }

    private final RealtimeEdges realtimeEdges;
    private final boolean process;
    private LongIntMap lastCommitted = new LongIntMap();
    private boolean realtimeEdgeToFailed;

    /** @param realtimeEdges the graph's realtime order when realtime edges are needed, else null */
    SessionOrder(RealtimeEdges realtimeEdges, boolean process) {
        this.realtimeEdges = realtimeEdges;
        this.process = process;
    }

    /** A transaction was invoked. */
    void invoked(int txn) {
        if (realtimeEdges != null) {
            realtimeEdges.invoked(txn);
        }
    }

    /**
     * A transaction's completion came without its invocation: nothing is known to precede it in
     * real time (Elle's realtime-graph links only at invocations). Process order still holds.
     */
    void invokedAtUnknownTime(int txn) {
        if (realtimeEdges != null) {
            realtimeEdges.invokedAtUnknownTime(txn);
        }
    }

    /**
     * A transaction of {@code processId} completed with {@code outcome} (a {@link TxnTable}
     * status); {@code nodes} transaction ids have been given.
     */
    void completed(int txn, long processId, byte outcome, int nodes, Links out) {
        if (realtimeEdges != null) {
            int before = realtimeEdges.snapshotSize(txn);
            if (outcome != TxnTable.FAIL) {
                int[] sources = realtimeEdges.snapshot(txn);
                for (int i = 0; i < before; i++) {
                    out.link(sources[i], txn, EdgeKind.REALTIME);
                }
            } else if (before > 0) {
                // Elle links realtime predecessors to failed transactions too; such edges can
                // close no cycle, so they are not kept, but they make Elle's graph non-empty.
                realtimeEdgeToFailed = true;
            }
            realtimeEdges.completed(txn, outcome == TxnTable.OK, nodes);
        }
        if (process && outcome == TxnTable.OK) {
            int previous = lastCommitted.put(processId, txn);
            if (previous != LongIntMap.MISSING) {
                out.link(previous, txn, EdgeKind.PROCESS);
            }
        }
    }

    /**
     * Forgets the transactions below {@code cut} and renumbers the rest
     * ({@link IncrementalChecker#evictBelow}): a process whose last committed transaction is
     * forgotten links its next one from nothing. The realtime order is the graph's and is
     * renumbered with it.
     */
    void evictBelow(int cut) {
        lastCommitted = Renumbering.values(lastCommitted, cut);
    }

    /** Whether Elle's graph holds a realtime edge into a failed transaction (which isowatch does not keep). */
    boolean linkedToFailed() {
        return realtimeEdgeToFailed;
    }
}
