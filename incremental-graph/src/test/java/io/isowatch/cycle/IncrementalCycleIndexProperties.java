package io.isowatch.cycle;

import io.isowatch.graph.EdgeKind;
import io.isowatch.graph.MutableDependencyGraph;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * After every edge, the incremental components equal Tarjan's on the whole graph, and the order
 * is a topological order of the condensation.
 */
class IncrementalCycleIndexProperties {

    @Provide
    Arbitrary<List<int[]>> edgeSequences() {
        Arbitrary<int[]> edge = Arbitraries.integers().between(0, 14).array(int[].class).ofSize(2);
        return edge.list().ofMinSize(1).ofMaxSize(60);
    }

    /** Longer ranges between an edge's ends: shifts across many components and merged slots. */
    @Provide
    Arbitrary<List<int[]>> longerEdgeSequences() {
        Arbitrary<int[]> edge = Arbitraries.integers().between(0, 39).array(int[].class).ofSize(2);
        return edge.list().ofMinSize(1).ofMaxSize(160);
    }

    @Property(tries = 400, seed = "20261123")
    void everyPrefix_componentsMatchTarjanAndOrderIsTopological(@ForAll("edgeSequences") List<int[]> edges) {
        checkEveryPrefix(edges);
    }

    @Property(tries = 150, seed = "20261127")
    void everyPrefixOfALongerSequence_componentsMatchTarjanAndOrderIsTopological(
            @ForAll("longerEdgeSequences") List<int[]> edges) {
        checkEveryPrefix(edges);
    }

    private static void checkEveryPrefix(List<int[]> edges) {
        MutableDependencyGraph graph = new MutableDependencyGraph();
        IncrementalCycleIndex index = new IncrementalCycleIndex(graph);
        List<int[]> added = new ArrayList<>();
        for (int[] e : edges) {
            index.ensureNode(Math.max(e[0], e[1]));
            if (graph.addEdge(e[0], e[1], EdgeKind.WW)) {
                added.add(e);
                int rep = index.edgeAdded(e[0], e[1]);
                int n = graph.nodeCount();
                int[] tarjan = Tarjan.components(n, added);
                for (int a = 0; a < n; a++) {
                    for (int b = 0; b < n; b++) {
                        assertEquals(tarjan[a] == tarjan[b], index.component(a) == index.component(b),
                                "nodes " + a + " and " + b + " after " + describe(added));
                    }
                }
                boolean cyclic = Tarjan.size(tarjan, tarjan[e[0]]) > 1 && tarjan[e[0]] == tarjan[e[1]];
                assertEquals(cyclic, rep != IncrementalCycleIndex.NO_CYCLE, "cycle reported for " + describe(added));
                for (int[] f : added) {
                    int ra = index.component(f[0]);
                    int rb = index.component(f[1]);
                    assertTrue(ra == rb || index.order(f[0]) < index.order(f[1]),
                            "edge " + f[0] + "->" + f[1] + " against the order after " + describe(added));
                }
            }
        }
    }

    private static String describe(List<int[]> edges) {
        StringBuilder sb = new StringBuilder();
        for (int[] e : edges) {
            sb.append(e[0]).append("->").append(e[1]).append(' ');
        }
        return sb.toString();
    }

    /** A plain recursive Tarjan, the reference. */
    static final class Tarjan {
        private final List<List<Integer>> out = new ArrayList<>();
        private final int[] index;
        private final int[] low;
        private final int[] component;
        private final boolean[] onStack;
        private final int[] stack;
        private int top;
        private int counter;
        private int components;

        private Tarjan(int n, List<int[]> edges) {
            for (int i = 0; i < n; i++) {
                out.add(new ArrayList<>());
            }
            for (int[] e : edges) {
                out.get(e[0]).add(e[1]);
            }
            index = new int[n];
            low = new int[n];
            component = new int[n];
            onStack = new boolean[n];
            stack = new int[n];
            Arrays.fill(index, -1);
        }

        static int[] components(int n, List<int[]> edges) {
            Tarjan t = new Tarjan(n, edges);
            for (int v = 0; v < n; v++) {
                if (t.index[v] < 0) {
                    t.visit(v);
                }
            }
            return t.component;
        }

        static int size(int[] component, int c) {
            int s = 0;
            for (int x : component) {
                s += x == c ? 1 : 0;
            }
            return s;
        }

        private void visit(int v) {
            index[v] = low[v] = counter++;
            stack[top++] = v;
            onStack[v] = true;
            for (int w : out.get(v)) {
                if (index[w] < 0) {
                    visit(w);
                    low[v] = Math.min(low[v], low[w]);
                } else if (onStack[w]) {
                    low[v] = Math.min(low[v], index[w]);
                }
            }
            if (low[v] == index[v]) {
                int w;
                do {
                    w = stack[--top];
                    onStack[w] = false;
                    component[w] = components;
                } while (w != v);
                components++;
            }
        }
    }
}
