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
 *
 * <p>A history recorded by several agents ({@link IncrementalChecker#checkAsFleet}) takes its
 * realtime order from {@link FleetRealtime} instead, which stores its edges in the graph.
 */
final class SessionOrder {

    /** Receives the edges. */
    interface Links {
        void link(int from, int to, EdgeKind kind);
    }

    private RealtimeEdges realtimeEdges;
    private FleetRealtime fleet;
    private final boolean process;
    private LongIntMap lastCommitted = new LongIntMap();
    private boolean realtimeEdgeToFailed;

    /** @param realtimeEdges the graph's realtime order when realtime edges are needed, else null */
    SessionOrder(RealtimeEdges realtimeEdges, boolean process) {
        this.realtimeEdges = realtimeEdges;
        this.process = process;
    }

    /**
     * Takes realtime from {@code fleetRealtime} instead of Elle's single buffer, when realtime
     * edges are needed at all. Call before the first event.
     */
    void checkAsFleet(FleetRealtime fleetRealtime) {
        if (realtimeEdges != null) {
            realtimeEdges = null;
            fleet = fleetRealtime;
        }
    }

    /** A transaction was invoked, on {@code agent} (a fleet's) at {@code time}. */
    void invoked(int txn, int agent, long time) {
        if (realtimeEdges != null) {
            realtimeEdges.invoked(txn);
        } else if (fleet != null) {
            fleet.invoked(txn, agent, time);
        }
    }

    /**
     * A transaction's completion came without its invocation: nothing is known to precede it in
     * real time (Elle's realtime-graph links only at invocations). Process order still holds.
     */
    void invokedAtUnknownTime(int txn, int agent, long completionTime) {
        if (realtimeEdges != null) {
            realtimeEdges.invokedAtUnknownTime(txn);
        } else if (fleet != null) {
            fleet.invokedAtUnknownTime(txn, agent, completionTime);
        }
    }

    /**
     * A transaction of {@code processId} completed with {@code outcome} (a {@link TxnTable}
     * status) at {@code time}; {@code nodes} transaction ids have been given.
     */
    void completed(int txn, long processId, byte outcome, long time, int nodes, Links out) {
        if (fleet != null) {
            fleet.completed(txn, time, outcome, out);
        }
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
     * forgotten links its next one from nothing. Elle's realtime order is the graph's and is
     * renumbered with it; a fleet's is renumbered here ({@code nodes}: ids given before the cut).
     */
    void evictBelow(int cut, int nodes) {
        lastCommitted = Renumbering.values(lastCommitted, cut);
        if (fleet != null) {
            fleet.evictBelow(cut, nodes);
        }
    }

    /** Whether Elle's graph holds a realtime edge into a failed transaction (which isowatch does not keep). */
    boolean linkedToFailed() {
        return realtimeEdgeToFailed || fleet != null && fleet.linkedToFailed();
    }
}
