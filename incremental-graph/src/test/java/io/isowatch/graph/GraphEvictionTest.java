package io.isowatch.graph;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Worked examples of {@link MutableDependencyGraph#evictBelow}; the property is {@link GraphEvictionProperties}. */
class GraphEvictionTest {

    private final MutableDependencyGraph graph = new MutableDependencyGraph();
    private final RealtimeEdges realtime = graph.realtime();

    @Test
    void evictBelow_forgottenEdgeNewerThanRealtime_repeatOfOlderStoredEdgeIsKept() {
        // 0 stays pending and is forgotten; 1 -> 2 ww, then realtime 1 -> 3, then 1 -> 0 rw.
        invoke(0);
        invoke(1);
        invoke(2);
        commit(1);
        invoke(3);
        assertTrue(graph.addEdge(1, 2, EdgeKind.WW));
        commit(3);
        assertTrue(graph.addEdge(1, 0, EdgeKind.RW));

        graph.evictBelow(1);

        // 0 (was 1)'s newest out-edge is now the realtime one, so ww 0 -> 1 is no immediate repeat.
        assertTrue(graph.addEdge(0, 1, EdgeKind.WW));
        assertEquals(List.of("ww 1", "realtime 2", "ww 1"), out(0));
        assertFalse(graph.addEdge(0, 1, EdgeKind.WW));
    }

    @Test
    void evictBelow_storedEdgeAddedAfterRealtime_stillWalkedBeforeIt() {
        invoke(0);
        invoke(1);
        invoke(2);
        commit(1);
        invoke(3);
        assertTrue(graph.addEdge(1, 0, EdgeKind.RW)); // stored edge 0, forgotten below
        commit(3);                                     // realtime 1 -> 3 after one stored edge
        assertTrue(graph.addEdge(1, 2, EdgeKind.WW)); // stored edge 1, kept as edge 0

        graph.evictBelow(1);

        assertEquals(List.of("ww 1", "realtime 2"), out(0));
        assertEquals(2, graph.edgeCount());
    }

    @Test
    void evictBelow_forgottenMemberOfBuffer_precedesNoLaterInvocation() {
        invoke(0);
        invoke(1);
        commit(0);
        commit(1); // invoked before 0 completed: Elle's buffer is now [0, 1]
        invoke(2); // its snapshot [0, 1] loses 0

        graph.evictBelow(1);
        invoke(2); // after the cut: its snapshot is [0] (was 1)

        assertEquals(List.of(0), snapshot(1));
        assertEquals(List.of(0), snapshot(2));
        commit(1);
        commit(2);
        assertEquals(List.of("realtime 2", "realtime 1"), out(0));
        assertEquals(List.of("realtime 0"), in(1));
        assertEquals(List.of("realtime 0"), in(2));
    }

    @Test
    void evictBelow_everything_leavesAnEmptyGraphThatGoesOn() {
        invoke(0);
        commit(0);
        invoke(1);
        assertTrue(graph.addEdge(1, 0, EdgeKind.WR));

        graph.evictBelow(2);

        assertEquals(0, graph.nodeCount());
        assertEquals(0, graph.edgeCount());
        assertEquals(0, realtime.pendingSnapshots());
        assertEquals(0, realtime.arenaSize());
        invoke(0);
        assertEquals(List.of(), snapshot(0));
        commit(0);
        invoke(1);
        commit(1);
        assertEquals(List.of("realtime 1"), out(0));
    }

    @Test
    void evictBelow_whileACompletionIsBeingLinked_throws() {
        invoke(0);
        invoke(1);
        commit(0);
        commit(1);
        invoke(2);
        graph.addRealtimeEdge(realtime.snapshot(2)[0], 2); // the first of two

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> graph.evictBelow(1));
        assertTrue(e.getMessage().contains("transaction 2"), e.getMessage());
        assertEquals(3, graph.nodeCount(), "nothing forgotten");
    }

    @Test
    void evictBelow_cutOutsideTheGraph_throws() {
        invoke(0);
        assertThrows(IllegalArgumentException.class, () -> graph.evictBelow(2));
        assertThrows(IllegalArgumentException.class, () -> graph.evictBelow(-1));
    }

    private void invoke(int txn) {
        graph.ensureNode(txn);
        realtime.invoked(txn);
    }

    /** Links the pending {@code txn}'s snapshot, as the checker does, and commits it. */
    private void commit(int txn) {
        int[] before = realtime.snapshot(txn);
        for (int i = 0; i < realtime.snapshotSize(txn); i++) {
            graph.addRealtimeEdge(before[i], txn);
        }
        realtime.completed(txn, true, graph.nodeCount());
    }

    private List<Integer> snapshot(int txn) {
        List<Integer> before = new ArrayList<>();
        for (int i = 0; i < realtime.snapshotSize(txn); i++) {
            before.add(realtime.snapshot(txn)[i]);
        }
        return before;
    }

    private List<String> out(int node) {
        Edges edges = new Edges();
        graph.outEdges(node, edges);
        return describe(edges);
    }

    private List<String> in(int node) {
        Edges edges = new Edges();
        graph.inEdges(node, edges);
        return describe(edges);
    }

    private static List<String> describe(Edges edges) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < edges.size(); i++) {
            out.add(EdgeKind.values()[edges.kind(i)].elleName() + " " + edges.node(i));
        }
        return out;
    }
}
