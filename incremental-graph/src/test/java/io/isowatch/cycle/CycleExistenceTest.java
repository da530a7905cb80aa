package io.isowatch.cycle;

import io.isowatch.graph.MutableDependencyGraph;
import org.junit.jupiter.api.Test;

import static io.isowatch.graph.EdgeKind.REALTIME;
import static io.isowatch.graph.EdgeKind.RW;
import static io.isowatch.graph.EdgeKind.WR;
import static io.isowatch.graph.EdgeKind.WW;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whether the edges of some kinds have a cycle among given transactions: the test the checker
 * makes before searching a whole component for a shape, which it skips when the shape's kinds
 * have no cycle there.
 */
class CycleExistenceTest {

    @Test
    void kindsMask_findsOnlyCyclesWalkingThoseKinds() {
        MutableDependencyGraph graph = new MutableDependencyGraph();
        // 0 -ww-> 1 -wr-> 2 -rw-> 0, and 2 -realtime-> 3 -ww-> 2: two cycles of different kinds.
        graph.addEdge(0, 1, WW);
        graph.addEdge(1, 2, WR);
        graph.addEdge(2, 0, RW);
        graph.addEdge(2, 3, REALTIME);
        graph.addEdge(3, 2, WW);
        int[] all = {0, 1, 2, 3};
        assertFalse(CycleExistence.cycleExists(graph, all, WW.bit()), "ww alone: 0->1 and 3->2, no cycle");
        assertFalse(CycleExistence.cycleExists(graph, all, WW.bit() | WR.bit()), "ww+wr: still acyclic");
        assertTrue(CycleExistence.cycleExists(graph, all, WW.bit() | WR.bit() | RW.bit()), "0->1->2->0");
        assertTrue(CycleExistence.cycleExists(graph, all, WW.bit() | REALTIME.bit()), "2->3->2");
        assertFalse(CycleExistence.cycleExists(graph, new int[] {0, 1, 3}, WW.bit() | WR.bit() | RW.bit() | REALTIME.bit()),
                "without 2 no cycle is left among the members");
    }
}
