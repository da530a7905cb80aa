package io.isowatch.graph;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A graph that forgets the transactions below a cut now and then is, edge for edge and in the
 * same order, the graph of the same events with the forgotten transactions' edges left out:
 * random client histories (commits, failures, crashes, completions without invocations, data
 * edges of every kind, immediate and later repeats) are given to a {@link MutableDependencyGraph}
 * and to a {@link ListGraph} that stores every edge, both evicting at the same random points
 * (cut 0 and cut = every node included) and going on with renumbered ids. After every event, and
 * in short histories after every single realtime edge, out-edges (in walk order), in-edges, pair
 * kinds, node and edge counts agree.
 *
 * <p>Elle's buffer is modelled twice. The one driving the reference drops forgotten members at
 * each cut and keeps the rest in order; the implicit snapshots must equal it, in order. The other
 * never forgets: it sees the whole history, including the completions of forgotten pending
 * transactions, which the checker skips. Every retained snapshot and the buffer must equal its
 * retained part as a set: a retained transaction keeps exactly the realtime predecessors it had
 * in the whole history, minus the forgotten ones (only the order in which they are linked can
 * differ, when a later completion swaps a forgotten member out of Elle's buffer).
 */
class GraphEvictionProperties {

    private static final EdgeKind[] KINDS = EdgeKind.values();
    private static final EdgeKind[] STORED = {EdgeKind.WW, EdgeKind.WR, EdgeKind.RW, EdgeKind.PROCESS};
    private static final int OK = 0;
    private static final int FAIL = 1;

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    @Property(tries = 400, seed = "20261128")
    void randomHistories_evictedGraphEqualsGraphWithoutForgottenEdges(@ForAll("seeds") long seed) {
        Random random = new Random(seed);
        new Run(random, 1 + random.nextInt(5), 1, 12).steps(20 + random.nextInt(120));
    }

    /**
     * Long histories, whose columns and arena span several pages: evicted every several thousand
     * events, compared every so often.
     */
    @Property(tries = 8, seed = "20261128")
    void longHistories_evictedGraphEqualsGraphWithoutForgottenEdges(@ForAll("seeds") long seed) {
        Random random = new Random(seed);
        new Run(random, 5 + random.nextInt(40), 997, 8000).steps(20000 + random.nextInt(10000));
    }

    /** One history, fed to the graph under test and to the models; ids are the current, renumbered ones. */
    private static final class Run {

        private final Random random;
        private final int processes;
        private final int compareEvery;
        private final int evictEvery;

        private final MutableDependencyGraph graph = new MutableDependencyGraph();
        private final RealtimeEdges realtime = graph.realtime();
        private final ListGraph reference = new ListGraph();

        /** Elle's buffer and pending snapshots, forgetting at each cut. */
        private List<Integer> buffer = new ArrayList<>();
        private Map<Integer, List<Integer>> snapshots = new HashMap<>();
        /** The same over the whole history, in original ids (current id + {@link #offset}). */
        private final List<Integer> wholeBuffer = new ArrayList<>();
        private final Map<Integer, List<Integer>> wholeSnapshots = new HashMap<>();
        private int offset;

        /** Per process: its pending transaction, or -1; or the original id of a forgotten pending one, or -1. */
        private final int[] open;
        private final int[] forgottenOpen;
        /** Data edges added lately, {from, to, kind}, to repeat later. */
        private final List<int[]> recent = new ArrayList<>();
        private final List<String> log = new ArrayList<>();

        Run(Random random, int processes, int compareEvery, int evictEvery) {
            this.random = random;
            this.processes = processes;
            this.compareEvery = compareEvery;
            this.evictEvery = evictEvery;
            open = new int[processes];
            forgottenOpen = new int[processes];
            Arrays.fill(open, -1);
            Arrays.fill(forgottenOpen, -1);
        }

        void steps(int steps) {
            for (int step = 0; step < steps; step++) {
                int p = random.nextInt(processes);
                int roll = random.nextInt(20);
                if (random.nextInt(evictEvery) == 0) {
                    evict(cut());
                } else if (roll < 5 && graph.nodeCount() > 1) {
                    dataEdges();
                } else if (forgottenOpen[p] >= 0) {
                    completeForgotten(p);
                } else if (open[p] < 0) {
                    invoke(p, roll == 19);
                } else {
                    complete(open[p], roll < 14 ? OK : roll < 17 ? FAIL : 2);
                    open[p] = -1;
                }
                if (step % compareEvery == 0 || step == steps - 1) {
                    assertSameGraph(compareEvery == 1 ? String.join("; ", log) : "step " + step);
                    assertHeldOnlyForRetained();
                }
            }
        }

        /** 0, every node, or any cut between, then mostly the older part (a retention period). */
        private int cut() {
            int nodes = graph.nodeCount();
            return switch (random.nextInt(6)) {
                case 0 -> 0;
                case 1 -> nodes;
                case 2 -> random.nextInt(nodes + 1);
                default -> random.nextInt(nodes / 2 + 1);
            };
        }

        /**
         * A new edge, a later repeat of a recent one, or a repeat of a node's newest stored edge
         * (dropped unless a realtime edge is newer: after a cut, the newest retained ones).
         */
        private void dataEdges() {
            int nodes = graph.nodeCount();
            int from = random.nextInt(nodes);
            int[] newest = reference.newestStoredKind(from);
            int[] edge;
            if (!recent.isEmpty() && random.nextInt(4) == 0) {
                edge = recent.get(random.nextInt(recent.size()));
            } else if (newest != null && random.nextInt(3) == 0) {
                edge = new int[] {from, newest[0], newest[1]};
            } else {
                edge = new int[] {from, random.nextInt(nodes), STORED[random.nextInt(STORED.length)].ordinal()};
                recent.add(edge);
                if (recent.size() > 6) {
                    recent.remove(0);
                }
            }
            int repeat = random.nextInt(3) == 0 ? 2 : 1; // the graph drops an immediate repeat
            for (int r = 0; r < repeat; r++) {
                EdgeKind kind = KINDS[edge[2]];
                assertEquals(reference.addEdge(edge[0], edge[1], kind), graph.addEdge(edge[0], edge[1], kind),
                        "whether " + kind.elleName() + " " + edge[0] + "->" + edge[1] + " is kept after " + history());
                log.add(kind.elleName() + " " + edge[0] + "->" + edge[1]);
            }
        }

        private void invoke(int p, boolean atUnknownTime) {
            int id = graph.nodeCount();
            graph.ensureNode(id);
            reference.ensureNode(id);
            if (atUnknownTime) {
                realtime.invokedAtUnknownTime(id);
                snapshots.put(id, List.of());
                wholeSnapshots.put(id + offset, List.of());
            } else {
                realtime.invoked(id);
                snapshots.put(id, List.copyOf(buffer));
                wholeSnapshots.put(id + offset, List.copyOf(wholeBuffer));
            }
            log.add((atUnknownTime ? "unseen " : "invoke ") + id + " after " + snapshots.get(id));
            open[p] = id;
            if (atUnknownTime) { // its completion is what was seen
                complete(id, random.nextInt(3));
                open[p] = -1;
            }
        }

        /** Outcome 0 commits, 1 fails, 2 crashes (info). */
        private void complete(int id, int outcome) {
            List<Integer> before = snapshots.remove(id);
            List<Integer> whole = wholeSnapshots.remove(id + offset);
            assertEquals(retained(whole), new TreeSet<>(before), "predecessors of " + id + " in the whole history");
            assertSnapshot(id, before);
            if (outcome != FAIL) {
                for (int p : before) {
                    reference.addRealtimeEdge(p, id);
                    graph.addRealtimeEdge(p, id);
                    log.add("realtime " + p + "->" + id);
                    if (compareEvery == 1) {
                        assertSameGraph(String.join("; ", log));
                    }
                }
            }
            if (outcome == OK) {
                replace(buffer, before, id);
                replace(wholeBuffer, whole, id + offset);
            }
            realtime.completed(id, outcome == OK, graph.nodeCount());
            log.add((outcome == OK ? "ok " : outcome == FAIL ? "fail " : "info ") + id);
        }

        /** The checker skips a forgotten transaction's completion; the whole history has it. */
        private void completeForgotten(int p) {
            int original = forgottenOpen[p];
            List<Integer> whole = wholeSnapshots.remove(original);
            if (random.nextBoolean()) {
                replace(wholeBuffer, whole, original);
            }
            forgottenOpen[p] = -1;
            log.add("skipped completion of forgotten " + original);
        }

        /** Elle's buffer after a commit: its predecessors leave (the last swapped into their place), it joins. */
        private static void replace(List<Integer> buffer, List<Integer> predecessors, int txn) {
            for (int p : predecessors) {
                int at = buffer.indexOf(p);
                if (at >= 0) {
                    buffer.set(at, buffer.get(buffer.size() - 1));
                    buffer.remove(buffer.size() - 1);
                }
            }
            buffer.add(txn);
        }

        private void evict(int cut) {
            graph.evictBelow(cut);
            reference.evictBelow(cut);
            buffer = renumbered(buffer, cut);
            Map<Integer, List<Integer>> kept = new HashMap<>();
            snapshots.forEach((txn, before) -> {
                if (txn >= cut) {
                    kept.put(txn - cut, renumbered(before, cut));
                }
            });
            snapshots = kept;
            for (int p = 0; p < processes; p++) {
                if (open[p] >= 0 && open[p] < cut) {
                    forgottenOpen[p] = open[p] + offset;
                    open[p] = -1;
                } else if (open[p] >= 0) {
                    open[p] -= cut;
                }
            }
            List<int[]> recentKept = new ArrayList<>();
            for (int[] edge : recent) {
                if (edge[0] >= cut && edge[1] >= cut) {
                    recentKept.add(new int[] {edge[0] - cut, edge[1] - cut, edge[2]});
                }
            }
            recent.clear();
            recent.addAll(recentKept);
            offset += cut;
            log.add("evict below " + cut);
            assertEquals(retained(wholeBuffer), new TreeSet<>(buffer), "Elle's buffer after " + history());
            snapshots.forEach(this::assertSnapshot);
        }

        private static List<Integer> renumbered(List<Integer> ids, int cut) {
            List<Integer> kept = new ArrayList<>();
            for (int id : ids) {
                if (id >= cut) {
                    kept.add(id - cut);
                }
            }
            return kept;
        }

        /** The retained members of a whole-history id set, in current ids. */
        private TreeSet<Integer> retained(List<Integer> whole) {
            TreeSet<Integer> kept = new TreeSet<>();
            for (int id : whole) {
                if (id >= offset) {
                    kept.add(id - offset);
                }
            }
            return kept;
        }

        private void assertSnapshot(int id, List<Integer> before) {
            List<Integer> implicit = new ArrayList<>();
            for (int i = 0; i < realtime.snapshotSize(id); i++) {
                implicit.add(realtime.snapshot(id)[i]);
            }
            assertEquals(before, implicit, "snapshot of " + id + " after " + history());
        }

        /**
         * What the realtime order holds is for retained transactions only: a snapshot per pending
         * one, and a record per transaction with realtime predecessors, of exactly those.
         */
        private void assertHeldOnlyForRetained() {
            assertEquals(snapshots.size(), realtime.pendingSnapshots(), "snapshots held after " + history());
            long bytes = 0;
            List<List<String>> in = reference.inEdges();
            for (int node = 0; node < in.size(); node++) {
                int predecessors = 0;
                for (String edge : in.get(node)) {
                    if (edge.endsWith("/" + EdgeKind.REALTIME.ordinal())) {
                        predecessors++;
                        bytes += varintLength(node - Integer.parseInt(edge.substring(0, edge.indexOf('/'))));
                    }
                }
                bytes += predecessors > 0 ? varintLength(predecessors) : 0;
            }
            assertEquals(bytes, realtime.arenaSize(), "bytes of realtime predecessor records after " + history());
        }

        private static int varintLength(int n) {
            return n < 1 << 7 ? 1 : n < 1 << 14 ? 2 : n < 1 << 21 ? 3 : n < 1 << 28 ? 4 : 5;
        }

        private String history() {
            return compareEvery == 1 ? String.join("; ", log) : log.size() + " events";
        }

        private void assertSameGraph(String history) {
            int n = reference.nodeCount();
            assertEquals(n, graph.nodeCount(), "node count after " + history);
            assertEquals(reference.edgeCount(), graph.edgeCount(), "edge count after " + history);
            List<List<String>> in = reference.inEdges();
            Edges edges = new Edges();
            for (int node = 0; node < n; node++) {
                graph.outEdges(node, edges);
                assertEquals(reference.outEdges(node), inOrder(edges), "out-edges of " + node + " after " + history);
                graph.outEdgesInAnyOrder(node, edges);
                assertEquals(sorted(reference.outEdges(node)), sorted(inOrder(edges)),
                        "out-edges in any order of " + node + " after " + history);
                graph.inEdges(node, edges);
                assertEquals(in.get(node), sources(edges), "in-edges of " + node + " after " + history);
                // Every pair in small graphs; in large ones, a few per node.
                int step = Math.max(1, n / 64);
                for (int other = node % step; other < n; other += step) {
                    assertEquals(reference.pairKind(node, other, graph), graph.pairKind(node, other),
                        "pair " + node + "->" + other + " after " + history);
                }
            }
        }

        private static List<String> inOrder(Edges edges) {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < edges.size(); i++) {
                out.add(KINDS[edges.kind(i)].elleName() + " " + edges.node(i));
            }
            return out;
        }

        private static List<String> sources(Edges edges) {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < edges.size(); i++) {
                out.add(edges.node(i) + "/" + edges.kind(i));
            }
            out.sort(null);
            return out;
        }

        private static List<String> sorted(List<String> edges) {
            List<String> out = new ArrayList<>(edges);
            out.sort(null);
            return out;
        }
    }
}
