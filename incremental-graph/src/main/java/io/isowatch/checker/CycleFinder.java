package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.collect.IntList;
import io.isowatch.cycle.CycleExistence;
import io.isowatch.cycle.CycleSearch;
import io.isowatch.cycle.CycleSpec;
import io.isowatch.cycle.IncrementalCycleIndex;
import io.isowatch.graph.EdgeKind;
import io.isowatch.graph.Edges;
import io.isowatch.graph.MutableDependencyGraph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Turns new edges into cycle findings: keeps the components current and, when an edge closes or
 * lies on a cycle, searches for each anomaly type through that edge, in Elle's search order.
 *
 * <p>A component remembers (as tags in the {@link IncrementalCycleIndex}) the types found in it;
 * those are not searched again. Types they imply still are: Elle skips them only after its own
 * search found the implying type, and that search can miss it (it keeps the first cycle it meets,
 * and drops it when the cycle is explained as another type), so Elle then reports the implied
 * types; isowatch streams every type a component holds, as soon as a cycle proves it
 * (docs/elle-compatibility.md, "Cycle search"). A search that runs out of budget is reported
 * once per component as {@code cycle-search-timeout}, which makes the verdict unknown.
 *
 * <p>At the end, {@link #finalFindings()} gives what Elle reports for the final graph: a cycle
 * found while one of its pairs was explained by a weaker relationship than it finally is (say
 * realtime, before an rw edge joined the pair) is classified again and, if its type changed,
 * its component is searched afresh; Elle's reporting rule is applied per component; and Elle's
 * cycle-exists fallbacks are added where no reported anomaly already rules their model out.
 */
final class CycleFinder {

    /**
     * A finding, a member of the component it was found in, the search (spec) that found it, the
     * ids of its cycle's transactions as they are now (null for a timeout), and whether it is what
     * Elle's search for that spec keeps (and so takes part in the verdict) rather than a cycle
     * only streamed; eviction renumbers the ids.
     */
    private record Found(Finding finding, int member, int spec, int[] nodes, boolean elles) {

        Found renumbered(int cut) {
            int[] now = null;
            if (nodes != null) {
                now = nodes.clone();
                for (int i = 0; i < now.length; i++) {
                    now[i] -= cut;
                }
            }
            return new Found(finding, member - cut, spec, now, elles);
        }
    }

    private static final long TIMEOUT_TAG = 1L << 62;
    private static final int FOUND_SHIFT = 0;
    /** Elle's search for a spec kept a cycle explained as another type (G0, G1c families). */
    private static final int MET_SHIFT = 31;

    private final MutableDependencyGraph graph;
    private final IncrementalCycleIndex index;
    private final CycleSearch search;
    private final long budget;
    /** What a search that gave up exceeded, for its finding. */
    private final String limits;
    private final List<CycleSpec> order = new ArrayList<>();
    private final long[] impliedMask;
    private List<Found> found = new ArrayList<>();
    private IntList cyclicMembers = new IntList();

    CycleFinder(MutableDependencyGraph graph, boolean realtime, boolean process, long budget, long timeoutMillis) {
        this.graph = graph;
        this.index = new IncrementalCycleIndex(graph);
        this.search = new CycleSearch(graph, index);
        this.search.timeLimit(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        this.budget = budget;
        this.limits = "visited more than " + budget + " edges"
                + (timeoutMillis > 0 ? " or ran longer than " + timeoutMillis + " ms" : "");
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

    /**
     * Accounts for the new edge {@code from -> to} (already in the graph) and reports each
     * cycle type it newly makes provable.
     */
    void edgeAdded(int from, int to, CycleExplainer explainer, Consumer<Finding> report) {
        int rep = index.edgeAdded(from, to);
        if (rep == IncrementalCycleIndex.NO_CYCLE) {
            return;
        }
        cyclicMembers.add(from);
        searchThrough(rep, from, to, explainer, report);
    }

    private void searchThrough(int rep, int from, int to, CycleExplainer explainer, Consumer<Finding> report) {
        boolean focused = false;
        for (int i = 0; i < order.size(); i++) {
            long tags = index.tags(rep);
            if ((tags & (1L << (i + FOUND_SHIFT))) != 0) {
                continue;
            }
            if (!focused) {
                search.focus(rep);
                focused = true;
            }
            CycleSpec spec = order.get(i);
            // Elle searches no type implied by one found in the component: a search of ours for
            // one that runs out of budget leaves the verdict as it is.
            boolean elleSearches = (impliedByFound(tags) & (1L << i)) == 0;
            if ((tags & (1L << (i + MET_SHIFT))) == 0) {
                CycleSearch.Result result = search.find(spec, from, to, budget, walksAnyKind(spec));
                if (result.outcome() == CycleSearch.Outcome.OUT_OF_BUDGET) {
                    if (elleSearches) {
                        timedOut(rep, from, to, spec, tags, explainer, report);
                    } else {
                        index.addTags(rep, 1L << (i + FOUND_SHIFT)); // given up here: not searched again
                    }
                    continue;
                }
                if (result.outcome() == CycleSearch.Outcome.NONE) {
                    // Walking every relationship found nothing: walking the explaining ones cannot.
                    continue;
                }
                Finding.Cycle cycle = explained(result, explainer);
                boolean own = cycle.type() == spec.type();
                index.addTags(rep, 1L << (i + (own ? FOUND_SHIFT : MET_SHIFT)));
                found.add(new Found(cycle, from, i, result.nodes(), true));
                report.accept(cycle);
                if (own) {
                    continue;
                }
            }
            // Elle's search for this spec kept a cycle of another type; a cycle explained as the
            // spec's own type is still a finding, streamed but not part of Elle's verdict.
            CycleSearch.Result own = search.find(spec, from, to, budget, false);
            if (own.outcome() == CycleSearch.Outcome.FOUND) {
                Finding.Cycle cycle = explained(own, explainer);
                index.addTags(rep, 1L << (i + FOUND_SHIFT));
                found.add(new Found(cycle, from, i, own.nodes(), false));
                report.accept(cycle);
            }
            // Out of budget here is no timeout of Elle's: its search for this spec kept a cycle.
        }
    }

    /**
     * The types implied by those found in a component with these tags (or given up on there), as
     * a bit per spec.
     */
    private long impliedByFound(long tags) {
        long implied = 0;
        for (int j = 0; j < order.size(); j++) {
            if ((tags & (1L << (j + FOUND_SHIFT))) != 0) {
                implied |= impliedMask[j];
            }
        }
        return implied;
    }

    /** Reports, once per component, that a search ran out of budget: the verdict is unknown. */
    private void timedOut(int rep, int from, int to, CycleSpec spec, long tags, CycleExplainer explainer,
                          Consumer<Finding> report) {
        if ((tags & TIMEOUT_TAG) != 0) {
            return;
        }
        index.addTags(rep, TIMEOUT_TAG);
        Finding timeout = new Finding.Undecided(AnomalyType.CYCLE_SEARCH_TIMEOUT,
                "searching a component of " + index.componentSize(rep) + " transactions for "
                        + spec.type() + " " + limits,
                List.of(explainer.txn(from), explainer.txn(to)));
        found.add(new Found(timeout, from, -1, null, true));
        report.accept(timeout);
    }

    /**
     * Elle's G0 and G1c searches (and their variants) keep whatever cycle they meet, walking any
     * relationship of a pair, and file it under the type its explanation gives; the searches for
     * the rw shapes keep only cycles explained as what they look for, which walking the
     * explaining relationships finds directly.
     */
    private static boolean walksAnyKind(CycleSpec spec) {
        return spec.rwRule() == CycleSpec.RwRule.NONE;
    }

    /** The cycle of a search result, with each step explained as Elle explains it. */
    private Finding.Cycle explained(CycleSearch.Result result, CycleExplainer explainer) {
        int[] nodes = result.nodes();
        EdgeKind[] kinds = new EdgeKind[nodes.length];
        for (int k = 0; k < nodes.length; k++) {
            kinds[k] = graph.pairKind(nodes[k], nodes[(k + 1) % nodes.length]);
        }
        return explainer.cycle(CycleSpec.classify(kinds), nodes, kinds);
    }

    /**
     * The cycle findings Elle would report for the final graph, plus its cycle-exists
     * fallbacks. Call once, after the last edge.
     */
    List<Finding> finalFindings(CycleExplainer explainer) {
        Map<Integer, List<Found>> byComponent = new LinkedHashMap<>();
        for (int i = 0; i < cyclicMembers.size(); i++) {
            byComponent.computeIfAbsent(index.component(cyclicMembers.get(i)), c -> new ArrayList<>());
        }
        List<Finding> out = new ArrayList<>();
        Map<Integer, Boolean> stale = new HashMap<>();
        for (Found f : found) {
            if (!f.elles()) {
                continue;
            }
            int c = index.component(f.member());
            List<Found> component = byComponent.computeIfAbsent(c, k -> new ArrayList<>());
            if (f.nodes() != null && !stillClassifiedAs(f)) {
                stale.put(c, true);
            } else {
                component.add(f);
            }
        }
        for (Map.Entry<Integer, List<Found>> e : byComponent.entrySet()) {
            List<Found> component = e.getValue();
            if (stale.containsKey(e.getKey())) {
                component = searchAfresh(e.getKey(), component, explainer);
            }
            List<Finding> reported = ellesReport(component);
            out.addAll(reported);
            out.addAll(cycleExistence(e.getKey(), reported, explainer));
        }
        return out;
    }

    /** Whether a cycle's steps, explained by the final graph, still give the type it was found as. */
    private boolean stillClassifiedAs(Found cycle) {
        int[] nodes = cycle.nodes();
        EdgeKind[] kinds = new EdgeKind[nodes.length];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = graph.pairKind(nodes[i], nodes[(i + 1) % nodes.length]);
        }
        return CycleSpec.classify(kinds) == cycle.finding().type();
    }

    /**
     * Forgets the transactions below {@code cut} and renumbers the rest
     * ({@link IncrementalChecker#evictBelow}), evicting the graph and rebuilding the components.
     * A finding leaves with its transactions: a cycle through a forgotten one (or a timeout met
     * from one) is dropped, as the verdict of a history cut there would not have it; the others
     * are renumbered and, their cycles intact, judged by the final graph as before. The index
     * carries each component's tags to the components its members end up in, so a type found
     * there once is not reported again.
     */
    void evictBelow(int cut) {
        List<Found> kept = new ArrayList<>();
        for (Found f : found) {
            if (f.member() >= cut && (f.nodes() == null || min(f.nodes()) >= cut)) {
                kept.add(f.renumbered(cut));
            }
        }
        graph.evictBelow(cut);
        index.evictBelow(cut);
        search.evictBelow(cut);
        found = kept;
        IntList cyclic = new IntList();
        Map<Integer, Boolean> seen = new HashMap<>();
        for (int i = 0; i < cyclicMembers.size(); i++) {
            int m = cyclicMembers.get(i) - cut;
            if (m >= 0 && index.componentSize(index.component(m)) > 1
                    && seen.put(index.component(m), true) == null) {
                cyclic.add(m);
            }
        }
        for (Found f : found) {
            if (seen.put(index.component(f.member()), true) == null) {
                cyclic.add(f.member());
            }
        }
        cyclicMembers = cyclic;
    }

    private static int min(int[] nodes) {
        int m = Integer.MAX_VALUE;
        for (int n : nodes) {
            m = Math.min(m, n);
        }
        return m;
    }

    /** Searches a whole component for every type not yet found in it, through each of its edges. */
    private List<Found> searchAfresh(int rep, List<Found> kept, CycleExplainer explainer) {
        List<Found> out = new ArrayList<>(kept);
        long have = 0;
        for (Found f : kept) {
            if (f.spec() >= 0) {
                have |= (1L << f.spec()) | impliedMask[f.spec()];
            }
        }
        search.focus(rep);
        int[] members = members(rep);
        Edges edges = new Edges();
        for (int i = 0; i < order.size(); i++) {
            if ((have & (1L << i)) != 0) {
                continue;
            }
            if (!CycleExistence.cycleExists(graph, members, order.get(i).allowed())) {
                // No cycle walks only the kinds this shape allows, so no edge can start one:
                // one linear test instead of a search through every edge of a large component.
                continue;
            }
            searching:
            for (int from : members) {
                graph.outEdges(from, edges);
                for (int x = 0; x < edges.size(); x++) {
                    int to = edges.node(x);
                    if (index.component(to) != rep) {
                        continue;
                    }
                    CycleSearch.Result r = search.find(order.get(i), from, to, budget, walksAnyKind(order.get(i)));
                    if (r.outcome() == CycleSearch.Outcome.FOUND) {
                        out.add(new Found(explained(r, explainer), from, i, r.nodes(), true));
                        have |= (1L << i) | impliedMask[i];
                        break searching;
                    }
                    if (r.outcome() == CycleSearch.Outcome.OUT_OF_BUDGET) {
                        out.add(new Found(new Finding.Undecided(AnomalyType.CYCLE_SEARCH_TIMEOUT,
                                "searching a component of " + members.length + " transactions afresh for "
                                        + order.get(i).type() + " " + limits,
                                List.of(explainer.txn(from), explainer.txn(to))), from, -1, null, true));
                        break searching;
                    }
                }
            }
        }
        return out;
    }

    /**
     * Elle's per-SCC rule: searches in order, each skipped when implied by a search that found a
     * cycle before it; a kept search contributes the cycle it found, under its explained type.
     */
    private List<Finding> ellesReport(List<Found> component) {
        long present = 0;
        for (Found f : component) {
            if (f.spec() >= 0) {
                present |= 1L << f.spec();
            }
        }
        long keep = 0;
        long skip = 0;
        for (int i = 0; i < order.size(); i++) {
            if ((present & (1L << i)) != 0 && (skip & (1L << i)) == 0) {
                keep |= 1L << i;
                skip |= impliedMask[i];
            }
        }
        List<Finding> out = new ArrayList<>();
        for (Found f : component) {
            if (f.spec() < 0 || (keep & (1L << f.spec())) != 0) {
                out.add(f.finding());
            }
        }
        return out;
    }

    /**
     * Elle's cycle-existence fallbacks for one component: each model's forbidden subgraph that
     * has a cycle, skipping models already ruled out by an earlier row, and dropping those the
     * component's reported cycles already rule out.
     */
    private List<Finding> cycleExistence(int rep, List<Finding> reported, CycleExplainer explainer) {
        int[] members = members(rep);
        List<String> cycleTypes = reported.stream().filter(f -> f.type().isCycle())
                .map(f -> f.type().elleName()).toList();
        Set<String> ruledOut = cycleTypes.isEmpty() ? Set.of() : ConsistencyModels.impossibleModels(cycleTypes);
        List<String> redundant = new ArrayList<>();
        List<Finding> out = new ArrayList<>();
        for (CycleExistence.Spec spec : CycleExistence.SPECS) {
            if (redundant.contains(spec.model()) || !CycleExistence.cycleExists(graph, members, spec)) {
                continue;
            }
            redundant.addAll(ConsistencyModels.impossibleModels(List.of(spec.type().elleName())));
            if (!ruledOut.contains(spec.model())) {
                List<Txn> scc = new ArrayList<>();
                for (int m : members) {
                    scc.add(explainer.txn(m));
                }
                out.add(new Finding.CycleExists(spec.type(), ConsistencyModels.friendlyModel(spec.model()),
                        spec.label(), scc));
            }
        }
        return out;
    }

    private int[] members(int rep) {
        IntList m = new IntList();
        for (int n = index.component(rep); n >= 0; n = index.nextMember(n)) {
            m.add(n);
        }
        int[] out = m.toArray();
        java.util.Arrays.sort(out);
        return out;
    }

    /** Builds findings for cycles: the checker knows the transactions and the evidence. */
    interface CycleExplainer {
        Finding.Cycle cycle(AnomalyType type, int[] nodes, EdgeKind[] kinds);

        Txn txn(int id);
    }
}
