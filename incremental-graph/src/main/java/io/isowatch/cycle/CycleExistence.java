package io.isowatch.cycle;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.collect.IntList;
import io.isowatch.collect.LongIntMap;
import io.isowatch.graph.DependencyGraph;
import io.isowatch.graph.EdgeKind;
import io.isowatch.graph.Edges;

import java.util.List;

/**
 * Elle's cycle-existence fallbacks: whether the subgraph a model forbids has a cycle inside one
 * strongly connected component, regardless of how any cycle there would be classified.
 *
 * <p>Each {@link Spec} is one row of Elle's table: a union of edge kinds, optionally extended by
 * rw edges that follow a union edge (Elle's "sequential extension", for cycles whose rw edges are
 * never adjacent). A subgraph has a cycle exactly when Kahn's algorithm cannot remove every
 * transaction. Cost: O(transactions + edges) of the component per spec.
 */
public final class CycleExistence {

    private CycleExistence() {
    }

    /**
     * One model's forbidden subgraph.
     *
     * @param type      the anomaly reported, e.g. {@code strong-PL-1-cycle-exists}
     * @param model     the model's name in Elle's table (canonical)
     * @param union     the edge kinds of the base graph
     * @param extension the kinds (rw) that may follow a base edge, or 0
     * @param label     how the subgraph is named in explanations
     */
    public record Spec(AnomalyType type, String model, int union, int extension, String label) {
    }

    private static final int WW = EdgeKind.WW.bit();
    private static final int WR = EdgeKind.WR.bit();
    private static final int RW = EdgeKind.RW.bit();
    private static final int PR = EdgeKind.PROCESS.bit();
    private static final int RT = EdgeKind.REALTIME.bit();

    /** Elle's table, in Elle's order. */
    public static final List<Spec> SPECS = List.of(
            new Spec(AnomalyType.PL_1_CYCLE_EXISTS, "PL-1", WW, 0, "ww"),
            new Spec(AnomalyType.PL_2_CYCLE_EXISTS, "PL-2", WW | WR, 0, "ww+wr"),
            new Spec(AnomalyType.PL_SI_CYCLE_EXISTS, "PL-SI", WW | WR, RW, "ww+wr, extended by rw"),
            new Spec(AnomalyType.PL_3_CYCLE_EXISTS, "PL-3", WW | WR | RW, 0, "ww+wr+rw"),
            new Spec(AnomalyType.STRONG_SESSION_PL_1_CYCLE_EXISTS, "strong-session-PL-1", WW | PR, 0, "ww+process"),
            new Spec(AnomalyType.STRONG_SESSION_PL_2_CYCLE_EXISTS, "strong-session-PL-2", WW | WR | PR, 0,
                    "ww+wr+process"),
            new Spec(AnomalyType.STRONG_SESSION_SNAPSHOT_ISOLATION_CYCLE_EXISTS, "strong-session-snapshot-isolation",
                    WW | WR | PR, RW, "ww+wr+process, extended by rw"),
            new Spec(AnomalyType.STRONG_SESSION_SERIALIZABLE_CYCLE_EXISTS, "strong-session-serializable",
                    WW | WR | RW | PR, 0, "ww+wr+rw+process"),
            new Spec(AnomalyType.STRONG_PL_1_CYCLE_EXISTS, "strong-PL-1", WW | RT, 0, "ww+realtime"),
            new Spec(AnomalyType.STRONG_PL_2_CYCLE_EXISTS, "strong-PL-2", WW | WR | RT, 0, "ww+wr+realtime"),
            new Spec(AnomalyType.STRONG_SNAPSHOT_ISOLATION_CYCLE_EXISTS, "strong-snapshot-isolation",
                    WW | WR | RT, RW, "ww+wr+realtime, extended by rw"),
            new Spec(AnomalyType.PL_SS_CYCLE_EXISTS, "PL-SS", WW | WR | RW | RT, 0, "ww+wr+rw+realtime"));

    /**
     * True when {@code spec}'s subgraph, restricted to the transactions in {@code members}, has a
     * cycle of two or more transactions.
     *
     * <p>For an extended subgraph the cycle must take each rw edge straight after an edge of the
     * union (so no two rw edges are adjacent, going round). Elle builds that graph by adding every
     * rw edge leaving any transaction with some incoming union edge, whether or not that edge is
     * on the cycle; on busy snapshot-isolation histories that finds "cycles" whose rw edges are
     * adjacent — write skew, which snapshot isolation allows — and raises a false alarm. isowatch
     * tracks the preceding edge instead: each transaction appears twice, as "entered by a union
     * edge" and "entered by an rw edge", and an rw edge may leave only the first. A closed walk
     * there with no two rw edges adjacent always contains such a simple cycle (splitting a walk at
     * a repeated transaction leaves at least one valid part), so cycle existence stays exact.
     */
    public static boolean cycleExists(DependencyGraph graph, int[] members, Spec spec) {
        return cycleExists(graph, members, spec.union(), spec.extension());
    }

    /**
     * True when the edges of the kinds in {@code kinds} (a mask of {@link EdgeKind#bit()}s),
     * restricted to {@code members}, have a cycle: a cycle of any shape walking only those kinds
     * needs one.
     */
    public static boolean cycleExists(DependencyGraph graph, int[] members, int kinds) {
        return cycleExists(graph, members, kinds, 0);
    }

    private static boolean cycleExists(DependencyGraph graph, int[] members, int union, int extension) {
        LongIntMap local = new LongIntMap(members.length);
        for (int i = 0; i < members.length; i++) {
            local.put(members[i], i);
        }
        boolean extended = extension != 0;
        int copies = extended ? 2 : 1;
        int n = members.length * copies;
        IntList[] out = new IntList[n];
        int[] inDegree = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = new IntList(4);
        }
        Edges edges = new Edges();
        for (int i = 0; i < members.length; i++) {
            graph.outEdgesInAnyOrder(members[i], edges);
            for (int x = 0; x < edges.size(); x++) {
                int j = local.get(edges.node(x));
                if (j == LongIntMap.MISSING) {
                    continue;
                }
                int bit = 1 << edges.kind(x);
                if ((union & bit) != 0) {
                    // Copy 0 of a transaction: entered by a union edge (or any edge, unextended).
                    for (int c = 0; c < copies; c++) {
                        link(out, inDegree, c * members.length + i, j);
                    }
                } else if (extended && (extension & bit) != 0) {
                    link(out, inDegree, i, members.length + j);
                }
            }
        }
        IntList ready = new IntList();
        for (int i = 0; i < n; i++) {
            if (inDegree[i] == 0) {
                ready.add(i);
            }
        }
        int removed = 0;
        while (!ready.isEmpty()) {
            int i = ready.get(ready.size() - 1);
            ready.swapRemove(ready.size() - 1);
            removed++;
            for (int k = 0; k < out[i].size(); k++) {
                int j = out[i].get(k);
                if (--inDegree[j] == 0) {
                    ready.add(j);
                }
            }
        }
        return removed < n;
    }

    private static void link(IntList[] out, int[] inDegree, int from, int to) {
        if (!out[from].contains(to)) {
            out[from].add(to);
            inDegree[to]++;
        }
    }
}
