package io.isowatch.graph;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The implicit realtime order is the graph Elle's realtime-graph makes, edge for edge and in the
 * same order: random client histories (commits, failures, crashes, completions without
 * invocations) with data edges in between are given to a graph that keeps realtime edges
 * implicitly and to one that stores every realtime edge as the checker did before, whose buffer
 * is a plain model of Elle's. After every event and every single realtime edge, every
 * transaction's out-edges (newest first, the order the cycle search walks), in-edges, pair kinds
 * and the edge count agree.
 */
class RealtimeEdgesProperties {

    private static final EdgeKind[] DATA = {EdgeKind.WW, EdgeKind.WR, EdgeKind.RW};

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    @Property(tries = 300, seed = "20261127")
    void randomHistories_implicitRealtimeEqualsStoredRealtime(@ForAll("seeds") long seed) {
        Random random = new Random(seed);
        check(random, 1 + random.nextInt(5), 10 + random.nextInt(60), 1);
    }

    /** Long histories, whose snapshots fill several pages of the arena; compared every so often. */
    @Property(tries = 12, seed = "20261127")
    void longHistories_implicitRealtimeEqualsStoredRealtime(@ForAll("seeds") long seed) {
        Random random = new Random(seed);
        check(random, 5 + random.nextInt(40), 4000 + random.nextInt(4000), 997);
    }

    private static void check(Random random, int processes, int steps, int compareEvery) {
        MutableDependencyGraph implicit = new MutableDependencyGraph();
        MutableDependencyGraph stored = new MutableDependencyGraph();
        RealtimeEdges realtime = implicit.realtime();
        List<Integer> buffer = new ArrayList<>();
        Map<Integer, List<Integer>> snapshots = new HashMap<>();
        int[] open = new int[processes];
        java.util.Arrays.fill(open, -1);
        int ids = 0;
        List<String> log = new ArrayList<>();
        for (int step = 0; step < steps; step++) {
            int p = random.nextInt(processes);
            int roll = random.nextInt(10);
            if (roll < 2 && ids > 1) {
                int from = random.nextInt(ids);
                int to = random.nextInt(ids);
                EdgeKind kind = DATA[random.nextInt(DATA.length)];
                int repeat = random.nextInt(3) == 0 ? 2 : 1; // the graph drops an immediate repeat
                for (int r = 0; r < repeat; r++) {
                    assertEquals(stored.addEdge(from, to, kind), implicit.addEdge(from, to, kind));
                    log.add(kind.elleName() + " " + from + "->" + to);
                }
            } else if (open[p] < 0) {
                int id = ids++;
                implicit.ensureNode(id);
                stored.ensureNode(id);
                boolean unknownInvocation = roll == 9;
                if (unknownInvocation) {
                    realtime.invokedAtUnknownTime(id);
                    snapshots.put(id, List.of());
                } else {
                    realtime.invoked(id);
                    snapshots.put(id, List.copyOf(buffer));
                }
                log.add((unknownInvocation ? "unseen " : "invoke ") + id + " after " + snapshots.get(id));
                open[p] = id;
                if (unknownInvocation) {
                    complete(id, 0, implicit, stored, buffer, snapshots, log, compareEvery == 1);
                    open[p] = -1;
                }
            } else {
                complete(open[p], roll < 7 ? 0 : roll < 9 ? 1 : 2, implicit, stored, buffer, snapshots, log,
                        compareEvery == 1);
                open[p] = -1;
            }
            if (step % compareEvery == 0 || step == steps - 1) {
                assertSameGraph(implicit, stored, compareEvery == 1 ? log : List.of("step " + step));
            }
        }
    }

    /** Outcome 0 commits, 1 fails, 2 crashes (info). */
    private static void complete(int id, int outcome, MutableDependencyGraph implicit, MutableDependencyGraph stored,
                                 List<Integer> buffer, Map<Integer, List<Integer>> snapshots, List<String> log,
                                 boolean compareEachEdge) {
        RealtimeEdges realtime = implicit.realtime();
        List<Integer> before = snapshots.remove(id);
        assertEquals(before.size(), realtime.snapshotSize(id), "snapshot size of " + id);
        for (int i = 0; i < before.size(); i++) {
            assertEquals(before.get(i), realtime.snapshot(id)[i], "predecessor " + i + " of " + id);
        }
        if (outcome != 1) {
            for (int p : before) {
                assertEquals(stored.addEdge(p, id, EdgeKind.REALTIME), implicit.addRealtimeEdge(p, id));
                log.add("realtime " + p + "->" + id);
                if (compareEachEdge) {
                    assertSameGraph(implicit, stored, log);
                }
            }
        }
        if (outcome == 0) {
            for (int p : before) {
                int at = buffer.indexOf(p);
                if (at >= 0) { // Elle's buffer: swap the last into the removed place
                    buffer.set(at, buffer.get(buffer.size() - 1));
                    buffer.remove(buffer.size() - 1);
                }
            }
            buffer.add(id);
        }
        realtime.completed(id, outcome == 0, implicit.nodeCount());
        log.add((outcome == 0 ? "ok " : outcome == 1 ? "fail " : "info ") + id);
    }

    private static void assertSameGraph(MutableDependencyGraph implicit, MutableDependencyGraph stored, List<String> log) {
        String history = String.join("; ", log);
        assertEquals(stored.nodeCount(), implicit.nodeCount(), history);
        assertEquals(stored.edgeCount(), implicit.edgeCount(), "edge count after " + history);
        Edges a = new Edges();
        Edges b = new Edges();
        int n = stored.nodeCount();
        for (int node = 0; node < n; node++) {
            stored.outEdges(node, a);
            implicit.outEdges(node, b);
            assertEquals(a.toString(), b.toString(), "out-edges of " + node + " after " + history);
            implicit.outEdgesInAnyOrder(node, b);
            assertEquals(sorted(a), sorted(b), "out-edges in any order of " + node + " after " + history);
            stored.inEdges(node, a);
            implicit.inEdges(node, b);
            assertEquals(sorted(a), sorted(b), "in-edges of " + node + " after " + history);
            // Every pair in small graphs; in large ones, each neighbour and a few others.
            int step = Math.max(1, n / 64);
            for (int other = node % step; other < n; other += step) {
                assertEquals(stored.pairKind(node, other), implicit.pairKind(node, other),
                        "pair " + node + "->" + other + " after " + history);
            }
            for (int i = 0; i < a.size(); i++) {
                assertEquals(stored.pairKind(a.node(i), node), implicit.pairKind(a.node(i), node),
                        "pair " + a.node(i) + "->" + node + " after " + history);
            }
        }
    }

    private static List<String> sorted(Edges edges) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < edges.size(); i++) {
            out.add(edges.node(i) + "/" + edges.kind(i));
        }
        out.sort(null);
        return out;
    }
}
