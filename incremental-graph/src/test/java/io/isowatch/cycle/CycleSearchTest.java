package io.isowatch.cycle;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.graph.EdgeKind;
import io.isowatch.graph.MutableDependencyGraph;
import org.junit.jupiter.api.Test;

import static io.isowatch.graph.EdgeKind.REALTIME;
import static io.isowatch.graph.EdgeKind.RW;
import static io.isowatch.graph.EdgeKind.WR;
import static io.isowatch.graph.EdgeKind.WW;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Cycle classification and the constrained search, on hand-built graphs. */
class CycleSearchTest {

    private final MutableDependencyGraph graph = new MutableDependencyGraph();
    private final IncrementalCycleIndex index = new IncrementalCycleIndex(graph);
    private final CycleSearch search = new CycleSearch(graph, index);

    private int link(int a, int b, EdgeKind kind) {
        index.ensureNode(Math.max(a, b));
        graph.addEdge(a, b, kind);
        return index.edgeAdded(a, b);
    }

    private CycleSearch.Result find(AnomalyType type, int from, int to, int rep) {
        search.focus(rep);
        return search.find(CycleSpec.of(type), from, to, 10_000);
    }

    @Test
    void classify_followsEllesRules() {
        assertEquals(AnomalyType.G0, CycleSpec.classify(new EdgeKind[] {WW, WW}));
        assertEquals(AnomalyType.G1C, CycleSpec.classify(new EdgeKind[] {WW, WR}));
        assertEquals(AnomalyType.G_SINGLE_ITEM, CycleSpec.classify(new EdgeKind[] {RW, WR}));
        assertEquals(AnomalyType.G2_ITEM, CycleSpec.classify(new EdgeKind[] {RW, RW}));
        assertEquals(AnomalyType.G_NONADJACENT_ITEM, CycleSpec.classify(new EdgeKind[] {RW, WR, RW, WW}));
        // Adjacency wraps round: the last rw touches the first.
        assertEquals(AnomalyType.G2_ITEM, CycleSpec.classify(new EdgeKind[] {RW, WR, RW}));
        assertEquals(AnomalyType.G_SINGLE_ITEM_REALTIME, CycleSpec.classify(new EdgeKind[] {RW, REALTIME}));
        assertEquals(AnomalyType.G0_PROCESS, CycleSpec.classify(new EdgeKind[] {WW, EdgeKind.PROCESS}));
    }

    @Test
    void addEdge_closingTwoCycle_findsG0AndNotG1c() {
        assertEquals(IncrementalCycleIndex.NO_CYCLE, link(0, 1, WW));
        int rep = link(1, 0, WW);
        CycleSearch.Result g0 = find(AnomalyType.G0, 1, 0, rep);
        assertEquals(CycleSearch.Outcome.FOUND, g0.outcome());
        assertArrayEquals(new int[] {1, 0}, g0.nodes());
        assertEquals(CycleSearch.Outcome.NONE, find(AnomalyType.G1C, 1, 0, rep).outcome());
        assertEquals(CycleSearch.Outcome.NONE, find(AnomalyType.G_SINGLE_ITEM, 1, 0, rep).outcome());
    }

    @Test
    void pairWithWwAndRw_isExplainedAsWw() {
        link(0, 1, RW);
        link(0, 1, WW);
        int rep = link(1, 0, WR);
        // Elle explains 0 -> 1 by ww, the first explainer that can: a G1c, not a G-single.
        assertEquals(CycleSearch.Outcome.FOUND, find(AnomalyType.G1C, 1, 0, rep).outcome());
        assertEquals(CycleSearch.Outcome.NONE, find(AnomalyType.G_SINGLE_ITEM, 1, 0, rep).outcome());
    }

    @Test
    void nonadjacentSearch_skipsAdjacentRwButFindsTheLongerCycle() {
        // 0 -rw-> 1 -rw-> 0 is G2-item; 0 -rw-> 1 -wr-> 2 -rw-> 3 -ww-> 0 is G-nonadjacent.
        link(0, 1, RW);
        link(1, 2, WR);
        link(2, 3, RW);
        link(1, 0, RW);
        int rep = link(3, 0, WW);
        CycleSearch.Result r = find(AnomalyType.G_NONADJACENT_ITEM, 3, 0, rep);
        assertEquals(CycleSearch.Outcome.FOUND, r.outcome());
        assertArrayEquals(new int[] {3, 0, 1, 2}, r.nodes());
        assertEquals(AnomalyType.G_NONADJACENT_ITEM, CycleSpec.classify(r.kinds()));
    }

    @Test
    void walkRepeatingATransaction_isNotTakenForACycle() {
        // Through 0 -> 1 the only G-single shape would pass node 2 twice: no simple cycle exists.
        link(0, 1, WW);
        link(1, 2, WW);
        link(2, 3, RW);
        link(3, 2, WW);
        int rep = link(2, 0, WW);
        assertEquals(CycleSearch.Outcome.NONE, find(AnomalyType.G_SINGLE_ITEM, 0, 1, rep).outcome());
    }

    @Test
    void timeLimit_endsALongSearchAsOutOfBudget_andNoLimitFinishesIt() {
        // Every pair of 100 transactions joined by ww, and one rw: no G2-item (two rw) exists, but
        // proving it visits every edge in several states, far more than the clock's 4096 steps.
        int n = 100;
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (a != b) {
                    link(a, b, a == 0 && b == 1 ? RW : WW);
                }
            }
        }
        search.focus(index.component(0));
        search.timeLimit(1);
        assertEquals(CycleSearch.Outcome.OUT_OF_BUDGET,
                search.find(CycleSpec.of(AnomalyType.G2_ITEM), 0, 1, Long.MAX_VALUE).outcome());
        search.timeLimit(0);
        assertEquals(CycleSearch.Outcome.NONE,
                search.find(CycleSpec.of(AnomalyType.G2_ITEM), 0, 1, Long.MAX_VALUE).outcome());
    }

    @Test
    void tinyBudget_isOutOfBudgetNeverNone() {
        for (int i = 0; i < 30; i++) {
            link(i, i + 1, WW);
        }
        int rep = link(30, 0, RW);
        search.focus(rep);
        CycleSearch.Result r = search.find(CycleSpec.of(AnomalyType.G_SINGLE_ITEM), 30, 0, 5);
        assertEquals(CycleSearch.Outcome.OUT_OF_BUDGET, r.outcome());
    }
}
