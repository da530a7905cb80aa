package io.isowatch.cycle;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.graph.EdgeKind;
import org.junit.jupiter.api.Test;

import static io.isowatch.graph.EdgeKind.WR;
import static io.isowatch.graph.EdgeKind.WW;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Eviction from the cycle index and the search, on hand-built graphs. */
class CycleIndexEvictionTest {

    private final ReplaceableGraph graph = new ReplaceableGraph();
    private final IncrementalCycleIndex index = new IncrementalCycleIndex(graph);
    private final CycleSearch search = new CycleSearch(graph, index);

    private int link(int a, int b, EdgeKind kind) {
        graph.add(a, b, kind);
        return index.edgeAdded(a, b);
    }

    private void evictBelow(int cut) {
        graph.evictBelow(cut);
        index.evictBelow(cut);
        search.evictBelow(cut);
    }

    private int[] members(int node) {
        int[] out = new int[index.componentSize(node)];
        int i = 0;
        for (int m = index.component(node); m >= 0; m = index.nextMember(m)) {
            out[i++] = m;
        }
        return out;
    }

    @Test
    void evictBelow_cycleThroughForgottenNode_splitsItsComponent() {
        link(0, 1, WW);
        link(1, 2, WW);
        int rep = link(2, 0, WW);
        index.addTags(rep, 0b101);
        evictBelow(1); // 1 -> 2 is left, as 0 -> 1: no cycle
        assertNotEquals(index.component(0), index.component(1));
        assertEquals(1, index.componentSize(0));
        assertEquals(-1, index.nextMember(0));
        // Tags go with every retained member, singletons included: they only suppress searches.
        assertEquals(0b101, index.tags(0));
        assertEquals(0b101, index.tags(1));
        assertEquals(IncrementalCycleIndex.NO_CYCLE, link(0, 1, WR), "a parallel edge inside no cycle");
        int closed = link(1, 0, WW);
        assertNotEquals(IncrementalCycleIndex.NO_CYCLE, closed);
        assertEquals(2, index.componentSize(closed));
        assertEquals(0b101, index.tags(closed));
    }

    @Test
    void evictBelow_componentKeepingACycle_staysWholeUnderItsSmallestMember() {
        link(4, 3, WW);
        link(3, 2, WW);
        link(2, 4, WW);
        link(0, 2, WW);
        link(3, 1, WW);
        int rep = link(1, 0, WW); // one component {0..4}
        assertEquals(5, index.componentSize(rep));
        index.addTags(rep, 1L << 62);
        evictBelow(2); // the cycle 2 -> 4 -> 3 -> 2 survives as 0 -> 2 -> 1 -> 0
        assertEquals(0, index.component(2));
        assertArrayEquals(new int[] {0, 1, 2}, members(1));
        assertEquals(1L << 62, index.tags(2));
        assertEquals(IncrementalCycleIndex.NO_CYCLE, link(2, 3, WW));
        assertNotEquals(IncrementalCycleIndex.NO_CYCLE, link(3, 1, WW));
        assertEquals(4, index.componentSize(3));
    }

    @Test
    void evictBelow_splitPieces_keepATopologicalOrder() {
        // 0 -> 1 -> 2 -> 3 -> 0: forgetting 0 leaves the chain 0 -> 1 -> 2, in this order, so that
        // the back edge 2 -> 0 is seen to close a cycle (against a wrong order it would pass as harmless).
        link(0, 1, WW);
        link(1, 2, WW);
        link(2, 3, WW);
        link(3, 0, WW);
        evictBelow(1);
        assertTrue(index.order(0) < index.order(1) && index.order(1) < index.order(2));
        int rep = link(2, 0, WW);
        assertNotEquals(IncrementalCycleIndex.NO_CYCLE, rep);
        assertEquals(3, index.componentSize(rep));
    }

    @Test
    void evictBelow_everyNode_leavesAnIndexThatStartsAgain() {
        link(0, 1, WW);
        link(1, 0, WW);
        evictBelow(5);
        assertEquals(IncrementalCycleIndex.NO_CYCLE, link(0, 1, WW));
        assertNotEquals(IncrementalCycleIndex.NO_CYCLE, link(1, 0, WW));
        assertEquals(0, index.tags(0));
    }

    @Test
    void evictBelow_negativeCut_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> index.evictBelow(-1));
    }

    @Test
    void evictBelow_hugeComponent_isSplitWithoutRecursion() {
        int n = 200_000;
        for (int i = 0; i + 1 < n; i++) {
            link(i, i + 1, WW);
        }
        link(n - 1, 1, WW);
        int rep = link(n - 1, 0, WW);
        assertEquals(n, index.componentSize(rep));
        evictBelow(1); // the ring 1 .. n-1 closed by the chord survives, renumbered 0 .. n-2
        assertEquals(n - 1, index.componentSize(0));
        assertEquals(0, index.component(n - 2));
        evictBelow(1); // without old node 1 the chord closes nothing: n - 2 singletons in a chain
        assertEquals(1, index.componentSize(0));
        assertEquals(1, index.componentSize(n - 3));
        assertEquals(IncrementalCycleIndex.NO_CYCLE, link(0, n - 3, WR));
        assertNotEquals(IncrementalCycleIndex.NO_CYCLE, link(n - 3, 0, WW));
    }

    @Test
    void searchEvictBelow_forgetsItsFocus_thenSearchesRenumberedIds() {
        link(0, 1, WW);
        link(1, 2, WW);
        int rep = link(2, 1, WW);
        search.focus(rep);
        assertEquals(CycleSearch.Outcome.FOUND, search.find(CycleSpec.of(AnomalyType.G0), 2, 1, 1_000).outcome());
        evictBelow(1); // the two-cycle is now 0 <-> 1
        assertEquals(CycleSearch.Outcome.NONE, search.find(CycleSpec.of(AnomalyType.G0), 1, 0, 1_000).outcome(),
                "nothing is searched before a new focus");
        search.focus(index.component(1));
        CycleSearch.Result r = search.find(CycleSpec.of(AnomalyType.G0), 1, 0, 1_000);
        assertEquals(CycleSearch.Outcome.FOUND, r.outcome());
        assertArrayEquals(new int[] {1, 0}, r.nodes());
    }
}
