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
 * Elle's search of one strongly connected component ({@code txn/cycle-cases-in-scc}), restated:
 *
 * <ol>
 * <li>the cycle-exists pass: for each model of {@code cycle-exists-specs} not already ruled out,
 *     whether its subgraph (a union of edge kinds, or {@code [:extension A rw]} = A plus A-then-rw
 *     shortcuts) has a cycle, self-loops included; the models left possible rule out the cycle
 *     types they prohibit;</li>
 * <li>for each cycle type in search order, not ruled out or implied by a type already found, a
 *     search for a cycle over the edges projected to the spec's kinds, each step taking any kind
 *     its edge has ({@code elle.bfs}, {@code BFSPath}); the cycle found is then explained pair by
 *     pair. A spec with a {@code :type} (G-single-item, G-nonadjacent-item, G2-item and their
 *     variants) keeps it only if the explanation agrees; G0 and G1c keep any, filed under the
 *     explained type. Finding one makes every type the spec's type implies redundant;</li>
 * <li>cycle-exists cases whose model a found cycle type already rules out are dropped.</li>
 * </ol>
 *
 * <p>The workloads differ in one place only: how a pair is explained. {@code elle.core/CombinedExplainer}
 * takes the first explainer that explains a pair, and list-append combines its analyzers ww
 * first ({@link #LIST_APPEND_ORDER}) while rw-register combines them as {@code [wr-graph,
 * ww+rw-graph, additional graphs]} ({@code rw_register.clj}, {@code graph}; {@link
 * #RW_REGISTER_ORDER}): there a pair joined by both a wr and a ww edge is explained as wr, so a
 * ww + wr two-cycle is G1c, even when Elle's G0 search (ww edges only) met it. The order is a
 * parameter of {@link #search}, which also lets the register reference imitate a checker that
 * explains ww first.
 *
 * <p>Elle's breadth-first search returns whichever matching cycle it meets first, which depends
 * on hash order. This restatement considers every matching simple cycle; when they would lead
 * to different outcomes the answer is ambiguous and {@link #search} returns null.
 */
final class BatchElleSearch {

    /** Elle's list-append explainer order: ww, wr, rw, process, realtime (the enum's order). */
    static final List<EdgeKind> LIST_APPEND_ORDER = List.of(EdgeKind.WW, EdgeKind.WR, EdgeKind.RW,
            EdgeKind.PROCESS, EdgeKind.REALTIME);
    /** Elle's rw-register explainer order: wr before ww. */
    static final List<EdgeKind> RW_REGISTER_ORDER = List.of(EdgeKind.WR, EdgeKind.WW, EdgeKind.RW,
            EdgeKind.PROCESS, EdgeKind.REALTIME);

    private static final EnumSet<EdgeKind> WW = EnumSet.of(EdgeKind.WW);
    private static final EnumSet<EdgeKind> WW_WR = EnumSet.of(EdgeKind.WW, EdgeKind.WR);
    private static final EnumSet<EdgeKind> DATA = EnumSet.of(EdgeKind.WW, EdgeKind.WR, EdgeKind.RW);

    /** A row of Elle's {@code cycle-exists-specs}: a canonical model and its subgraph. */
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
            new CycleExists("strong-session-PL-1", with(WW, EdgeKind.PROCESS), false),
            new CycleExists("strong-session-PL-2", with(WW_WR, EdgeKind.PROCESS), false),
            new CycleExists("strong-session-snapshot-isolation", with(WW_WR, EdgeKind.PROCESS), true),
            new CycleExists("strong-session-serializable", with(DATA, EdgeKind.PROCESS), false),
            new CycleExists("strong-PL-1", with(WW, EdgeKind.REALTIME), false),
            new CycleExists("strong-PL-2", with(WW_WR, EdgeKind.REALTIME), false),
            new CycleExists("strong-snapshot-isolation", with(WW_WR, EdgeKind.REALTIME), true),
            new CycleExists("PL-SS", with(DATA, EdgeKind.REALTIME), false));

    private static final Set<String> CYCLE_EXISTS_MODELS = new HashSet<>();

    static {
        CYCLE_EXISTS.forEach(c -> CYCLE_EXISTS_MODELS.add(c.model()));
    }

    private BatchElleSearch() {
    }

    /** True for Elle's {@code <model>-cycle-exists} anomaly names. */
    static boolean isCycleExists(String type) {
        return type.endsWith("-cycle-exists");
    }

    /** The canonical model a cycle-exists anomaly names. */
    static String modelOf(String cycleExistsType) {
        return cycleExistsType.substring(0, cycleExistsType.length() - "-cycle-exists".length());
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

    /**
     * The anomaly types Elle reports for one component, each cycle explained pair by pair in the
     * workload's {@code order}; null when ambiguous or past the cycle cap.
     */
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
        Set<String> redundant = new HashSet<>(impossibleCycleTypes(cases));
        for (String type : ConsistencyModels.cycleSearchOrder()) {
            if (redundant.contains(type)) {
                continue;
            }
            Set<String> outcomes = new HashSet<>();
            for (List<Integer> cycle : cycles) {
                if (matches(g, cycle, type)) {
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
            if (!ruledOut.contains(modelOf(c))) {
                out.add(c);
            }
        }
        return out;
    }

    // ---- the cycle-exists pass ----

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

    private static Set<String> impossibleCycleTypes(List<String> cases) {
        Set<String> impossible = ConsistencyModels.impossibleModels(cases);
        List<String> possible = CYCLE_EXISTS_MODELS.stream().filter(m -> !impossible.contains(m)).toList();
        return ConsistencyModels.anomaliesProhibitedBy(possible);
    }

    /** A spec's subgraph of the component; {@code [:extension A rw]} adds A-then-rw shortcuts. */
    private static Map<Integer, Set<Integer>> subgraph(BatchCycles.Graph g, List<Integer> scc, CycleExists spec) {
        Set<Integer> members = new HashSet<>(scc);
        Map<Integer, Set<Integer>> a = new HashMap<>();
        for (int from : scc) {
            Set<Integer> to = new HashSet<>();
            for (int next : g.successors(from)) {
                if (members.contains(next) && intersects(g.kinds(from, next), spec.union())) {
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

    // ---- one spec ----

    /** G0 and G1c searches keep any cycle; the others only one explained as their type. */
    private static boolean typed(String type) {
        return !(type.startsWith("G0") || type.startsWith("G1c"));
    }

    /**
     * Whether Elle's path search for {@code type} accepts this cycle: each step takes one of its
     * edge's kinds among those the spec allows, and the choices meet the spec (required kinds,
     * the number and adjacency of rw steps).
     */
    static boolean matches(BatchCycles.Graph g, List<Integer> cycle, String type) {
        EdgeKind variant = type.endsWith("-realtime") ? EdgeKind.REALTIME
                : type.endsWith("-process") ? EdgeKind.PROCESS : null;
        String base = variant == null ? type : type.substring(0, type.lastIndexOf('-'));
        EnumSet<EdgeKind> allowed = base.equals("G0") ? EnumSet.copyOf(WW)
                : base.equals("G1c") ? EnumSet.copyOf(WW_WR) : EnumSet.copyOf(DATA);
        if (variant != null) {
            allowed.add(variant);
        }
        int n = cycle.size();
        List<EnumSet<EdgeKind>> choices = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            EnumSet<EdgeKind> k = EnumSet.copyOf(g.kinds(cycle.get(i), cycle.get((i + 1) % n)));
            k.retainAll(allowed);
            if (k.isEmpty()) {
                return false;
            }
            choices.add(k);
        }
        return assign(choices, 0, new EdgeKind[n], base, variant);
    }

    private static boolean assign(List<EnumSet<EdgeKind>> choices, int i, EdgeKind[] steps, String base,
                                  EdgeKind variant) {
        if (i == steps.length) {
            return valid(steps, base, variant);
        }
        for (EdgeKind k : choices.get(i)) {
            steps[i] = k;
            if (assign(choices, i + 1, steps, base, variant)) {
                return true;
            }
        }
        return false;
    }

    private static boolean valid(EdgeKind[] steps, String base, EdgeKind variant) {
        int rw = 0;
        boolean wr = false;
        boolean hasVariant = variant == null;
        boolean adjacent = false;
        for (int i = 0; i < steps.length; i++) {
            rw += steps[i] == EdgeKind.RW ? 1 : 0;
            wr |= steps[i] == EdgeKind.WR;
            hasVariant |= steps[i] == variant;
            adjacent |= steps[i] == EdgeKind.RW && steps[(i + 1) % steps.length] == EdgeKind.RW;
        }
        if (!hasVariant) {
            return false;
        }
        return switch (base) {
            case "G0" -> true;
            case "G1c" -> wr;
            case "G-single-item" -> rw == 1;
            case "G-nonadjacent-item" -> rw >= 2 && !adjacent;
            case "G2-item" -> rw >= 2;
            default -> throw new IllegalArgumentException(base);
        };
    }

    private static boolean intersects(Set<EdgeKind> a, Set<EdgeKind> b) {
        for (EdgeKind k : a) {
            if (b.contains(k)) {
                return true;
            }
        }
        return false;
    }

    private static EnumSet<EdgeKind> with(EnumSet<EdgeKind> base, EdgeKind extra) {
        EnumSet<EdgeKind> out = EnumSet.copyOf(base);
        out.add(extra);
        return out;
    }
}
