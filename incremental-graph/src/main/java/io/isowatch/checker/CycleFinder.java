package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.cycle.CycleSearch;
import io.isowatch.cycle.CycleSpec;
import io.isowatch.cycle.IncrementalCycleIndex;
import io.isowatch.graph.EdgeKind;
import io.isowatch.graph.MutableDependencyGraph;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Turns new edges into cycle findings: keeps the components current and, when an edge closes or
 * lies on a cycle, searches for each anomaly type through that edge, in Elle's search order.
 *
 * <p>A component remembers (as tags in the {@link IncrementalCycleIndex}) the types found in it
 * and the types they imply; those are not searched again, as Elle skips anomalies implied by
 * ones already found in an SCC. A search that runs out of budget is reported once per component
 * as {@code cycle-search-timeout}, which makes the verdict unknown.
 */
final class CycleFinder {

    /** A cycle finding and a member of the component it was found in. */
    record Found(Finding finding, int member) {
    }

    private static final long TIMEOUT_TAG = 1L << 62;

    private final MutableDependencyGraph graph;
    private final IncrementalCycleIndex index;
    private final CycleSearch search;
    private final long budget;
    private final List<CycleSpec> order = new ArrayList<>();
    private final long[] impliedMask;
    private final List<Found> found = new ArrayList<>();

    CycleFinder(MutableDependencyGraph graph, boolean realtime, boolean process, long budget) {
        this.graph = graph;
        this.index = new IncrementalCycleIndex(graph);
        this.search = new CycleSearch(graph, index);
        this.budget = budget;
        for (String name : ConsistencyModels.cycleSearchOrder()) {
            AnomalyType type = AnomalyType.byElleName(name);
            if (type == null) {
                continue;
            }
            CycleSpec spec = CycleSpec.of(type);
            EdgeKind variant = spec.variant();
            if (variant == null || (variant == EdgeKind.REALTIME && realtime) || (variant == EdgeKind.PROCESS && process)) {
                order.add(spec);
            }
        }
        impliedMask = new long[order.size()];
        for (int i = 0; i < order.size(); i++) {
            Set<String> implied = ConsistencyModels.allImpliedAnomalies(List.of(order.get(i).type().elleName()));
            for (int j = 0; j < order.size(); j++) {
                if (implied.contains(order.get(j).type().elleName())) {
                    impliedMask[i] |= 1L << j;
                }
            }
        }
    }

    /** The order in which cycle types are searched. */
    List<CycleSpec> searchOrder() {
        return order;
    }

    int component(int node) {
        return index.component(node);
    }

    /**
     * Accounts for the new edge {@code from -> to} (already in the graph) and reports each
     * cycle type it newly makes provable.
     */
    void edgeAdded(int from, int to, CycleExplainer explainer, java.util.function.Consumer<Finding> report) {
        int rep = index.edgeAdded(from, to);
        if (rep == IncrementalCycleIndex.NO_CYCLE) {
            return;
        }
        boolean focused = false;
        for (int i = 0; i < order.size(); i++) {
            long tags = index.tags(rep);
            if ((tags & (1L << (i + 31))) != 0 || (tags & (1L << i)) != 0) {
                continue;
            }
            if (!focused) {
                search.focus(rep);
                focused = true;
            }
            CycleSpec spec = order.get(i);
            CycleSearch.Result result = search.find(spec, from, to, budget);
            if (result.outcome() == CycleSearch.Outcome.FOUND) {
                AnomalyType type = CycleSpec.classify(result.kinds());
                Finding.Cycle cycle = explainer.cycle(type, result.nodes(), result.kinds());
                index.addTags(rep, (1L << i) | (impliedMask[i] << 31));
                found.add(new Found(cycle, from));
                report.accept(cycle);
            } else if (result.outcome() == CycleSearch.Outcome.OUT_OF_BUDGET && (tags & TIMEOUT_TAG) == 0) {
                index.addTags(rep, TIMEOUT_TAG);
                Finding timeout = new Finding.Undecided(AnomalyType.CYCLE_SEARCH_TIMEOUT,
                        "searching a component of " + index.componentSize(rep) + " transactions for "
                                + spec.type() + " visited more than " + budget + " edges",
                        List.of(explainer.txn(from), explainer.txn(to)));
                found.add(new Found(timeout, from));
                report.accept(timeout);
            }
        }
    }

    /**
     * The cycle findings Elle would report for the final graph: within each component, types in
     * search order, skipping those implied by a type reported before them. Timeouts always stay.
     */
    List<Finding> finalFindings() {
        List<Finding> out = new ArrayList<>();
        java.util.Map<Integer, Long> reported = new java.util.HashMap<>();
        java.util.Map<AnomalyType, Integer> position = new java.util.HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            position.put(order.get(i).type(), i);
        }
        // Which types each final component holds.
        java.util.Map<Integer, Long> present = new java.util.HashMap<>();
        for (Found f : found) {
            Integer p = position.get(f.finding().type());
            if (p != null) {
                present.merge(index.component(f.member()), 1L << p, (x, y) -> x | y);
            }
        }
        for (java.util.Map.Entry<Integer, Long> e : present.entrySet()) {
            long skip = 0;
            long keep = 0;
            for (int i = 0; i < order.size(); i++) {
                if ((e.getValue() & (1L << i)) != 0 && (skip & (1L << i)) == 0) {
                    keep |= 1L << i;
                    skip |= impliedMask[i];
                }
            }
            reported.put(e.getKey(), keep);
        }
        for (Found f : found) {
            Integer p = position.get(f.finding().type());
            if (p == null) {
                out.add(f.finding());
            } else if ((reported.get(index.component(f.member())) & (1L << p)) != 0) {
                out.add(f.finding());
            }
        }
        return out;
    }

    /** Builds findings for cycles: the checker knows the transactions and the evidence. */
    interface CycleExplainer {
        Finding.Cycle cycle(AnomalyType type, int[] nodes, EdgeKind[] kinds);

        Txn txn(int id);
    }
}
