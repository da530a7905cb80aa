package io.isowatch.checker;

import io.isowatch.gen.GeneratorArbitraries;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.graph.DependencyGraph;
import io.isowatch.graph.EdgeKind;
import io.isowatch.graph.Edges;
import io.isowatch.history.AgentMerge;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fleet checker's realtime edges against decision 0021's rule computed naively over all
 * pairs: T1 -> T2 when T1 completed ok and T2 completed other than fail, and either both ran on
 * one agent and T1's completion comes before T2's invocation in that agent's order, or they ran
 * on different agents and T1's completion time plus the uncertainty is before T2's invocation
 * time. The checker links only a transitive reduction, so the transitive closures are compared.
 * Offsets here are unbounded (the rule does not care whether the clocks are right).
 */
class FleetRealtimeProperties {

    @Provide
    Arbitrary<GeneratorOptions> histories() {
        return Combinators.combine(GeneratorArbitraries.smallHistories(120), Arbitraries.integers().between(1, 8))
                .as((o, concurrency) -> o.toBuilder().concurrency(concurrency).build());
    }

    @Property(tries = 300, seed = "20261223")
    void closureOfTheCheckersRealtimeEdges_isTheClosureOfThePairwiseRule(
            @ForAll("histories") GeneratorOptions options, @ForAll @IntRange(min = 1, max = 4) int agents,
            @ForAll @LongRange(min = 0, max = 100_000) long epsilonNanos, @ForAll long offsetSeed,
            @ForAll @IntRange(min = 0, max = 2) int evictions) {
        List<Op> history = ListAppendGenerator.generate(options);
        SplittableRandom random = new SplittableRandom(offsetSeed);
        long[] offsets = new long[agents];
        for (int a = 0; a < agents; a++) {
            offsets[a] = random.nextLong(200_000);
        }
        List<AgentMerge.Merged> merged = FleetHistories.splitAndMerge(history, options.concurrency(), offsets);
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        checker.checkAsFleet(Duration.ofNanos(epsilonNanos));
        // Evictions between events, as the job's: the forgotten transactions leave the graph and
        // every structure; nothing retained may gain or lose a path among retained ones.
        int forgotten = 0;
        for (int i = 0; i < merged.size(); i++) {
            if (evictions > 0 && random.nextInt(merged.size()) < evictions && checker.heldTransactions() > 0) {
                int cut = random.nextInt(checker.heldTransactions() + 1);
                checker.evictBelow(cut);
                forgotten += cut;
            }
            checker.accept(merged.get(i).op(), merged.get(i).agent());
        }
        int cut = forgotten;
        assertEquals(closure(withoutFirst(reference(merged, epsilonNanos), cut)),
                closure(realtimeEdges(checker.graph())),
                () -> "ε " + epsilonNanos + " ns, offsets " + java.util.Arrays.toString(offsets) + ", " + cut
                        + " forgotten");
    }

    /** The graph without its first {@code cut} nodes, renumbered down by {@code cut}. */
    private static List<List<Integer>> withoutFirst(List<List<Integer>> succ, int cut) {
        List<List<Integer>> out = new ArrayList<>();
        for (int n = cut; n < succ.size(); n++) {
            out.add(succ.get(n).stream().filter(s -> s >= cut).map(s -> s - cut).toList());
        }
        return out;
    }

    /**
     * With one agent the fleet checker's realtime order is Elle's, whatever the uncertainty: the
     * closure of its stored edges is that of the plain checker's implicit ones.
     */
    @Property(tries = 200, seed = "20261224")
    void oneAgent_closureIsElles(@ForAll("histories") GeneratorOptions options,
                                 @ForAll @LongRange(min = 0, max = 1_000_000) long epsilonNanos) {
        List<Op> history = ListAppendGenerator.generate(options);
        List<AgentMerge.Merged> merged = FleetHistories.splitAndMerge(history, options.concurrency(), new long[] {0});
        IncrementalChecker fleet = FleetHistories.fleetChecker(CheckerOptions.defaults(), Duration.ofNanos(epsilonNanos),
                merged, new ArrayList<>());
        IncrementalChecker elle = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        merged.forEach(m -> elle.accept(m.op()));
        assertEquals(closure(realtimeEdges(elle.graph())), closure(realtimeEdges(fleet.graph())));
    }

    /** Every realtime edge of the graph, as successor lists by id. */
    private static List<List<Integer>> realtimeEdges(DependencyGraph graph) {
        List<List<Integer>> out = new ArrayList<>();
        Edges edges = new Edges();
        for (int n = 0; n < graph.nodeCount(); n++) {
            List<Integer> succ = new ArrayList<>();
            graph.outEdges(n, edges);
            for (int i = 0; i < edges.size(); i++) {
                if (edges.kind(i) == EdgeKind.REALTIME.ordinal()) {
                    succ.add(edges.node(i));
                }
            }
            out.add(succ);
        }
        return out;
    }

    /** A transaction as the rule sees it, by the checker's id (invocation order in the merge). */
    private record T(int agent, long invokePos, long invokeTime, long completePos, long completeTime, OpType outcome) {
    }

    /** The rule over all pairs, as successor lists by id; times are the agents' merge times. */
    private static List<List<Integer>> reference(List<AgentMerge.Merged> merged, long epsilon) {
        Map<Long, Integer> open = new HashMap<>();
        List<long[]> inv = new ArrayList<>();
        List<T> txns = new ArrayList<>();
        Map<Integer, Long> clock = new HashMap<>();
        for (AgentMerge.Merged m : merged) {
            Op op = m.op();
            long t = AgentMerge.mergeTime(clock.getOrDefault(m.agent(), AgentMerge.NO_TIME_YET), op.time());
            clock.put(m.agent(), t);
            if (op.type() == OpType.INVOKE) {
                open.put(op.process(), inv.size());
                inv.add(new long[] {m.agent(), op.index(), t});
                txns.add(null);
            } else {
                int id = open.remove(op.process());
                long[] i = inv.get(id);
                txns.set(id, new T((int) i[0], i[1], i[2], op.index(), t, op.type()));
            }
        }
        List<List<Integer>> out = new ArrayList<>();
        for (int a = 0; a < txns.size(); a++) {
            List<Integer> succ = new ArrayList<>();
            T t1 = txns.get(a);
            for (int b = 0; b < txns.size(); b++) {
                T t2 = txns.get(b);
                if (a == b || t1 == null || t2 == null || t1.outcome != OpType.OK || t2.outcome == OpType.FAIL) {
                    continue;
                }
                boolean edge = t1.agent == t2.agent ? t1.completePos < t2.invokePos
                        : t1.completeTime + epsilon < t2.invokeTime;
                if (edge) {
                    succ.add(b);
                }
            }
            out.add(succ);
        }
        return out;
    }

    /** Reachability by one or more edges, per node. */
    private static List<BitSet> closure(List<List<Integer>> succ) {
        List<BitSet> out = new ArrayList<>();
        for (int s = 0; s < succ.size(); s++) {
            BitSet seen = new BitSet();
            ArrayList<Integer> stack = new ArrayList<>(succ.get(s));
            while (!stack.isEmpty()) {
                int n = stack.remove(stack.size() - 1);
                if (!seen.get(n)) {
                    seen.set(n);
                    stack.addAll(succ.get(n));
                }
            }
            out.add(seen);
        }
        return out;
    }
}
