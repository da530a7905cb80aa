package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.cycle.CycleSpec;
import io.isowatch.graph.EdgeKind;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Elle's search of one strongly connected component ({@code txn/cycle-cases-in-scc}) for
 * {@link RegisterBatchReference}, with the pair explainer of {@code elle.rw-register}.
 *
 * <p>It differs from {@link BatchElleSearch} in one place only: how a pair is explained. The
 * rw-register checker combines its analyzers as {@code [wr-graph, ww+rw-graph, additional
 * graphs]} ({@code rw_register.clj}, {@code graph}), and {@code elle.core/CombinedExplainer} takes
 * the first explainer that explains a pair, so a pair joined by both a wr and a ww edge is
 * explained as wr: a ww + wr two-cycle is G1c, even when Elle's G0 search (ww edges only) met it.
 * The order is a parameter so the reference can also imitate a checker that explains ww first.
 *
 * <p>The rest restates Elle as {@link BatchElleSearch} does: the cycle-exists pass rules out the
 * types no possible model forbids; then each cycle type in Elle's order, unless implied by one
 * already found, is searched over every simple cycle whose steps can each take an allowed kind;
 * the spec's type must match the explained type where the spec has one (not G0, G1c). Because
 * Elle's breadth-first search keeps whichever matching cycle it meets first, an answer that
 * depends on which cycle is met is ambiguous: {@link #search} returns null.
 */
final class RegisterBatchSearch {

    /** Elle's rw-register explainer order. */
    static final List<EdgeKind> ELLE_ORDER = List.of(EdgeKind.WR, EdgeKind.WW, EdgeKind.RW, EdgeKind.PROCESS,
            EdgeKind.REALTIME);
    /** The enum's order: ww before wr. */
    static final List<EdgeKind> WW_FIRST = List.of(EdgeKind.WW, EdgeKind.WR, EdgeKind.RW, EdgeKind.PROCESS,
            EdgeKind.REALTIME);

    private static final EnumSet<EdgeKind> WW = EnumSet.of(EdgeKind.WW);
    private static final EnumSet<EdgeKind> WW_WR = EnumSet.of(EdgeKind.WW, EdgeKind.WR);
    private static final EnumSet<EdgeKind> DATA = EnumSet.of(EdgeKind.WW, EdgeKind.WR, EdgeKind.RW);

    /** A row of Elle's {@code cycle-exists-specs}. */
    private record CycleExists(String model, EnumSet<EdgeKind> union, boolean extension) {
        String type() {
            return model + "-cycle-exists";
        }
    }

    private static final List<CycleExists> CYCLE_EXISTS = List.of(
            new CycleExists("PL-1", WW, false),
            new CycleExists("PL-2", WW_WR, false),
            new CycleExists("PL-SI", WW_WR, true),
            new CycleExists("PL-3", DATA, false),
            new CycleExists("strong-session-PL-1", plus(WW, EdgeKind.PROCESS), false),
            new CycleExists("strong-session-PL-2", plus(WW_WR, EdgeKind.PROCESS), false),
            new CycleExists("strong-session-snapshot-isolation", plus(WW_WR, EdgeKind.PROCESS), true),
            new CycleExists("strong-session-serializable", plus(DATA, EdgeKind.PROCESS), false),
            new CycleExists("strong-PL-1", plus(WW, EdgeKind.REALTIME), false),
            new CycleExists("strong-PL-2", plus(WW_WR, EdgeKind.REALTIME), false),
            new CycleExists("strong-snapshot-isolation", plus(WW_WR, EdgeKind.REALTIME), true),
            new CycleExists("PL-SS", plus(DATA, EdgeKind.REALTIME), false));

    private RegisterBatchSearch() {
    }

    /** The kind that explains the pair: the first in {@code order} among the kinds joining it. */
    static EdgeKind explain(BatchCycles.Graph g, int from, int to, List<EdgeKind> order) {
        EnumSet<EdgeKind> kinds = g.kinds(from, to);
        for (EdgeKind k : order) {
            if (kinds.contains(k)) {
                return k;
            }
        }
        throw new IllegalStateException("no edge " + from + " -> " + to);
    }

    /** Elle's cycle explainer: the type of a cycle from the kinds explaining its steps. */
    static String explainedType(BatchCycles.Graph g, List<Integer> cycle, List<EdgeKind> order) {
        EdgeKind[] steps = new EdgeKind[cycle.size()];
        for (int i = 0; i < cycle.size(); i++) {
            steps[i] = explain(g, cycle.get(i), cycle.get((i + 1) % cycle.size()), order);
        }
        return CycleSpec.classify(steps).elleName();
    }

    /** The anomaly types Elle reports for one component; null when ambiguous or past the cycle cap. */
    static Set<String> search(BatchCycles.Graph g, List<Integer> scc, List<EdgeKind> order) {
        Set<String> out = new TreeSet<>();
        List<String> cases = cycleExistsCases(g, scc);
        if (cases.isEmpty()) {
            return out;
        }
        List<List<Integer>> cycles = BatchCycles.simpleCycles(g, scc);
        if (cycles == null) {
            return null;
        }
        Set<String> impossible = ConsistencyModels.impossibleModels(cases);
        List<String> possible = CYCLE_EXISTS.stream().map(CycleExists::model)
                .filter(m -> !impossible.contains(m)).toList();
        Set<String> redundant = new HashSet<>(ConsistencyModels.anomaliesProhibitedBy(possible));
        for (String type : ConsistencyModels.cycleSearchOrder()) {
            if (redundant.contains(type)) {
                continue;
            }
            Set<String> outcomes = new HashSet<>();
            for (List<Integer> cycle : cycles) {
                if (BatchElleSearch.matches(g, cycle, type, false)) {
                    String explained = explainedType(g, cycle, order);
                    outcomes.add(typed(type) && !explained.equals(type) ? "" : explained);
                }
            }
            if (outcomes.size() > 1) {
                return null;
            }
            if (outcomes.size() == 1 && !outcomes.contains("")) {
                out.add(outcomes.iterator().next());
                redundant.addAll(ConsistencyModels.allImpliedAnomalies(List.of(type)));
            }
        }
        Set<String> ruledOut = ConsistencyModels.impossibleModels(out);
        for (String c : cases) {
            if (!ruledOut.contains(BatchElleSearch.modelOf(c))) {
                out.add(c);
            }
        }
        return out;
    }

    /** G0 and G1c searches keep any cycle; the others only one explained as their type. */
    private static boolean typed(String type) {
        return !(type.startsWith("G0") || type.startsWith("G1c"));
    }

    /** Elle's {@code cycle-exists-cases}: each model's subgraph, unless an earlier row ruled it out. */
    private static List<String> cycleExistsCases(BatchCycles.Graph g, List<Integer> scc) {
        List<String> cases = new ArrayList<>();
        Set<String> redundant = new HashSet<>();
        for (CycleExists spec : CYCLE_EXISTS) {
            if (!redundant.contains(spec.model()) && hasCycle(subgraph(g, scc, spec))) {
                cases.add(spec.type());
                redundant.addAll(ConsistencyModels.impossibleModels(List.of(spec.type())));
            }
        }
        return cases;
    }

    /** A spec's subgraph of the component; {@code [:extension A rw]} adds A-then-rw shortcuts. */
    private static Map<Integer, Set<Integer>> subgraph(BatchCycles.Graph g, List<Integer> scc, CycleExists spec) {
        Set<Integer> members = new HashSet<>(scc);
        Map<Integer, Set<Integer>> a = new HashMap<>();
        for (int from : scc) {
            Set<Integer> to = new HashSet<>();
            for (int next : g.successors(from)) {
                EnumSet<EdgeKind> k = EnumSet.copyOf(g.kinds(from, next));
                k.retainAll(spec.union());
                if (members.contains(next) && !k.isEmpty()) {
                    to.add(next);
                }
            }
            a.put(from, to);
        }
        if (!spec.extension()) {
            return a;
        }
        Map<Integer, Set<Integer>> ext = new HashMap<>();
        for (int from : scc) {
            Set<Integer> to = new HashSet<>(a.get(from));
            for (int mid : a.get(from)) {
                for (int next : g.successors(mid)) {
                    if (members.contains(next) && g.kinds(mid, next).contains(EdgeKind.RW)) {
                        to.add(next);
                    }
                }
            }
            ext.put(from, to);
        }
        return ext;
    }

    /** A cycle through two or more nodes, or a self-loop (which an extension can make). */
    private static boolean hasCycle(Map<Integer, Set<Integer>> adj) {
        BatchCycles.Graph g = new BatchCycles.Graph();
        for (Map.Entry<Integer, Set<Integer>> e : adj.entrySet()) {
            for (int to : e.getValue()) {
                if (to == e.getKey()) {
                    return true;
                }
                g.link(e.getKey(), to, EdgeKind.WW);
            }
        }
        return BatchCycles.components(g).stream().anyMatch(c -> c.size() > 1);
    }

    private static EnumSet<EdgeKind> plus(EnumSet<EdgeKind> base, EdgeKind extra) {
        EnumSet<EdgeKind> out = EnumSet.copyOf(base);
        out.add(extra);
        return out;
    }
}
