package io.isowatch.cycle;

import io.isowatch.graph.EdgeKind;
import io.isowatch.graph.MutableDependencyGraph;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Eviction keeps the index exactly what a fresh index fed only the retained edges would be: after
 * every step (an edge, tags, or an eviction at a random cut) the components equal those of a
 * fresh index and of a brute-force reachability oracle, the order is topological, member lists
 * and sizes agree, tags are those carried from the old components, and every later edge is
 * reported as cyclic exactly when the fresh index reports it so.
 */
class CycleIndexEvictionProperties {

    private static final EdgeKind[] KINDS = EdgeKind.values();

    /** Steps as {what, a, b, kind}: what 0 evicts, 1 tags, anything else adds an edge. */
    @Provide
    Arbitrary<List<int[]>> steps() {
        Arbitrary<int[]> step = Arbitraries.integers().between(0, 999).array(int[].class).ofSize(4);
        return step.list().ofMinSize(1).ofMaxSize(120);
    }

    @Property(tries = 1000, seed = "20261124")
    void randomStepsWithEvictions_indexMatchesAFreshOneOverTheRetainedGraph(
            @ForAll("steps") List<int[]> steps, @ForAll @IntRange(min = 0, max = 12) int backEvery) {
        new Run(backEvery).play(steps);
        // The mutation this must catch (components renumbered, not split again) needs splits to happen.
        Statistics.label("eviction").coverage(c -> c.check("splits a component").count(n -> n >= 100));
    }

    /** One generated run: the evicting index, the model it is held to, and a fresh reference index. */
    private static final class Run {
        /** One edge in about this many goes a short way back, 0 for none (an acyclic run). */
        private final int backEvery;
        private final ReplaceableGraph graph = new ReplaceableGraph();
        private final IncrementalCycleIndex index = new IncrementalCycleIndex(graph);
        /**
         * The reference has a graph of its own: an index must see each edge in the graph only once it
         * is reported, so a fresh one cannot be fed over a graph that already holds them all.
         */
        private MutableDependencyGraph freshGraph = new MutableDependencyGraph();
        private IncrementalCycleIndex fresh = new IncrementalCycleIndex(freshGraph);
        /** Nodes the index knows: one past the highest end of a reported edge, after renumbering. */
        private int nodes;
        /** Tags held through each node: a component's tags are the union over its members. */
        private long[] nodeTags = new long[0];
        private boolean justEvicted;

        Run(int backEvery) {
            this.backEvery = backEvery;
        }

        void play(List<int[]> steps) {
            for (int[] s : steps) {
                justEvicted = false;
                int what = s[0] % 12;
                if (what == 0) {
                    evict(cut(s[1], s[2]));
                } else if (what == 1 && nodes > 0) {
                    tag(s[1] % nodes, 1L << (s[2] % 64));
                } else {
                    addEdge(s[1], s[2], s[3]);
                }
                check();
            }
        }

        /** Any cut; or a small one; or one just past a member of a cyclic component, which it may split. */
        private int cut(int a, int b) {
            int cyclic = 0;
            while (cyclic < nodes && index.componentSize(cyclic) == 1) {
                cyclic++;
            }
            return switch (b % 3) {
                case 0 -> a % (nodes + 1);
                case 1 -> Math.min(nodes, 1 + a % Math.max(1, nodes / 4));
                default -> Math.min(nodes, cyclic + 1 + a % 3);
            };
        }

        private void addEdge(int a, int b, int c) {
            EdgeKind kind = KINDS[c % KINDS.length];
            int from = a % (nodes + 1);
            int to;
            if (c % 7 == 0) { // now and then an edge to anywhere
                to = b % (nodes + 2);
            } else if (backEvery > 0 && c % backEvery == 0) { // a short back edge: a cycle an eviction may cut
                to = Math.max(0, from - 1 - b % 8);
            } else { // mostly forward to a near id, as in a history: long chains
                to = from + 1 + b % 4;
            }
            if (backEvery == 0 && from > to) { // only forward ids: a DAG, reported in random order
                int t = from;
                from = to;
                to = t;
            }
            boolean stored = graph.add(from, to, kind);
            assertEquals(stored, freshGraph.addEdge(from, to, kind));
            if (!stored) {
                return;
            }
            int got = index.edgeAdded(from, to);
            int expected = fresh.edgeAdded(from, to);
            assertEquals(expected == IncrementalCycleIndex.NO_CYCLE, got == IncrementalCycleIndex.NO_CYCLE,
                    "cycle reported for " + from + "->" + to + " over " + describe(graph.stored()));
            nodes = Math.max(nodes, Math.max(from, to) + 1);
            if (nodeTags.length < nodes) {
                nodeTags = Arrays.copyOf(nodeTags, nodes);
            }
        }

        private void tag(int node, long bits) {
            index.addTags(node, bits);
            nodeTags[node] |= bits;
        }

        private void evict(int cut) {
            int kept = nodes - cut;
            long[] carried = new long[kept];
            for (int v = cut; v < nodes; v++) {
                carried[v - cut] = index.tags(v); // a retained member carries its old component's tags
            }
            int before = componentCount(cut, nodes);
            graph.evictBelow(cut);
            index.evictBelow(cut);
            justEvicted = cut > 0; // evicting nothing leaves the index as it was
            nodes = kept;
            nodeTags = carried;
            int after = componentCount(0, nodes);
            Statistics.label("eviction").collect(cut == 0 ? "evicts nothing"
                    : after > before ? "splits a component" : "keeps the components");
            freshGraph = new MutableDependencyGraph();
            fresh = new IncrementalCycleIndex(freshGraph);
            if (nodes > 0) {
                fresh.ensureNode(nodes - 1);
            }
            for (int[] e : graph.stored()) {
                assertTrue(freshGraph.addEdge(e[0], e[1], KINDS[e[2]]));
                fresh.edgeAdded(e[0], e[1]);
            }
        }

        private int componentCount(int from, int to) {
            Set<Integer> reps = new HashSet<>();
            for (int v = from; v < to; v++) {
                reps.add(index.component(v));
            }
            return reps.size();
        }

        private void check() {
            String where = describe(graph.stored());
            boolean[][] reach = Oracle.reachability(nodes, graph.stored());
            for (int a = 0; a < nodes; a++) {
                for (int b = 0; b < nodes; b++) {
                    boolean same = index.component(a) == index.component(b);
                    assertEquals(reach[a][b] && reach[b][a], same, "nodes " + a + ", " + b + " over " + where);
                    assertEquals(fresh.component(a) == fresh.component(b), same,
                            "against a fresh index: nodes " + a + ", " + b + " over " + where);
                }
            }
            for (int[] e : graph.stored()) {
                assertTrue(index.component(e[0]) == index.component(e[1]) || index.order(e[0]) < index.order(e[1]),
                        "edge " + e[0] + "->" + e[1] + " against the order over " + where);
            }
            for (int v = 0; v < nodes; v++) {
                checkComponentOf(v, where);
            }
        }

        /** Member list, size, tags and (right after an eviction) the smallest member as representative. */
        private void checkComponentOf(int v, String where) {
            int rep = index.component(v);
            int size = 0;
            long tags = 0;
            int previous = -1;
            for (int m = rep; m >= 0; m = index.nextMember(m)) {
                assertEquals(rep, index.component(m), "member " + m + " of " + rep + " over " + where);
                if (justEvicted) {
                    assertTrue(m > previous, "members of " + rep + " in increasing order after eviction");
                }
                previous = m;
                size++;
                tags |= nodeTags[m];
                assertTrue(size <= nodes, "member list of " + rep + " loops over " + where);
            }
            int expectedSize = 0;
            for (int u = 0; u < nodes; u++) {
                expectedSize += index.component(u) == rep ? 1 : 0;
            }
            assertEquals(expectedSize, size, "members listed for " + rep + " over " + where);
            assertEquals(expectedSize, index.componentSize(v), "size of " + rep + " over " + where);
            assertEquals(tags, index.tags(v), "tags of " + rep + " over " + where);
        }
    }

    static String describe(List<int[]> edges) {
        StringBuilder sb = new StringBuilder();
        for (int[] e : edges) {
            sb.append(e[0]).append("->").append(e[1]).append(' ');
        }
        return sb.toString();
    }

    /** Brute force: who reaches whom, by a breadth-first search from every node. */
    static final class Oracle {
        private Oracle() {
        }

        static boolean[][] reachability(int n, List<int[]> edges) {
            List<List<Integer>> out = new ArrayList<>();
            for (int v = 0; v < n; v++) {
                out.add(new ArrayList<>());
            }
            for (int[] e : edges) {
                out.get(e[0]).add(e[1]);
            }
            boolean[][] reach = new boolean[n][n];
            for (int s = 0; s < n; s++) {
                ArrayDeque<Integer> queue = new ArrayDeque<>();
                reach[s][s] = true;
                queue.add(s);
                while (!queue.isEmpty()) {
                    for (int t : out.get(queue.poll())) {
                        if (!reach[s][t]) {
                            reach[s][t] = true;
                            queue.add(t);
                        }
                    }
                }
            }
            return reach;
        }
    }
}
