package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.anomaly.Finding;
import io.isowatch.gen.GeneratorArbitraries;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.gen.RegisterGenerator;
import io.isowatch.graph.Edges;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A checker that forgets its oldest transactions while it runs ({@link IncrementalChecker#evictBelow},
 * as the stream job bounds its memory) loses findings, never invents one: on a correct history it
 * stays silent; on a faulty one every step of every cycle it reports is an edge of the whole
 * history's graph, every other finding is of a type the whole history shows, and its verdict rules
 * out no model the whole history does not. Evictions come at random events, with random cuts,
 * several times in a history, under models with and without session edges, for both workloads.
 */
class EvictionProperties {

    enum Models {
        STRICT_SERIALIZABLE("strict-serializable"),
        SERIALIZABLE("serializable"),
        SNAPSHOT_ISOLATION("snapshot-isolation"),
        STRONG_SESSION_SERIALIZABLE("strong-session-serializable");

        final Set<ConsistencyModel> models;

        Models(String name) {
            models = Set.of(ConsistencyModel.of(name));
        }
    }

    @Provide
    Arbitrary<Models> models() {
        return Arbitraries.of(Models.class);
    }

    @Provide
    Arbitrary<RegisterHistories.Sources> sources() {
        return Arbitraries.of(RegisterHistories.Sources.class);
    }

    // ---- silent on correct histories ----

    @Property(tries = 300, seed = "20261127")
    void listAppend_correctHistory_staysSilentWhileEvicting(@ForAll(supplier = GeneratorArbitraries.Correct.class) GeneratorOptions generator,
                                                           @ForAll("models") Models models,
                                                           @ForAll @DoubleRange(min = 0.02, max = 0.5) double evictRate,
                                                           @ForAll @LongRange(min = 0, max = 1000) long seed) {
        List<Op> history = ListAppendGenerator.generate(generator);
        assertSilent(Run.evicting(listAppend(models), history, evictRate, new SplittableRandom(seed)), history);
    }

    @Property(tries = 300, seed = "20261128")
    void register_correctHistory_staysSilentWhileEvicting(@ForAll(supplier = GeneratorArbitraries.Correct.class) GeneratorOptions generator,
                                                         @ForAll("sources") RegisterHistories.Sources sources,
                                                         @ForAll @DoubleRange(min = 0.02, max = 0.5) double evictRate,
                                                         @ForAll @LongRange(min = 0, max = 1000) long seed) {
        List<Op> history = RegisterGenerator.generate(generator);
        CheckerOptions options = RegisterHistories.options(Set.of("strict-serializable"), sources.options);
        assertSilent(Run.evicting(options, history, evictRate, new SplittableRandom(seed)), history);
    }

    /** Nothing but Elle's note on a graph without edges, which a short history may well have. */
    private static void assertSilent(Run run, List<Op> history) {
        String where = "after " + run.evictions + " evictions\n" + CheckerHistories.jsonLines(history);
        List<Finding> streamed = run.streamed.stream()
                .filter(f -> f.type() != AnomalyType.EMPTY_TRANSACTION_GRAPH).toList();
        assertEquals(List.of(), streamed, () -> where);
        assertTrue(Set.of(AnomalyType.EMPTY_TRANSACTION_GRAPH).containsAll(run.verdict.anomalyTypes()),
                () -> run.verdict.anomalyTypes() + ", " + where);
    }

    // ---- faulty histories: nothing the whole history does not prove ----

    @Property(tries = 400, seed = "20261129")
    void listAppend_faultyHistory_evictingReportsOnlyWhatTheWholeProves(@ForAll(supplier = GeneratorArbitraries.Any.class) GeneratorOptions generator,
                                                                        @ForAll("models") Models models,
                                                                        @ForAll @DoubleRange(min = 0.02, max = 0.5) double evictRate,
                                                                        @ForAll @LongRange(min = 0, max = 1000) long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Op> history = CheckerMutator.mutate(ListAppendGenerator.generate(generator), 0.2, random);
        compare(listAppend(models), history, evictRate, random);
    }

    @Property(tries = 400, seed = "20261130")
    void register_faultyHistory_evictingReportsOnlyWhatTheWholeProves(@ForAll(supplier = GeneratorArbitraries.Any.class) GeneratorOptions generator,
                                                                      @ForAll("sources") RegisterHistories.Sources sources,
                                                                      @ForAll("models") Models models,
                                                                      @ForAll @DoubleRange(min = 0.1, max = 0.6) double staleRate,
                                                                      @ForAll @DoubleRange(min = 0.02, max = 0.5) double evictRate,
                                                                      @ForAll @LongRange(min = 0, max = 1000) long seed) {
        List<Op> history = RegisterGenerator.generate(generator.toBuilder().staleReadRate(staleRate).build());
        CheckerOptions options = CheckerOptions.defaults().toBuilder().consistencyModels(models.models)
                .registers(sources.options).workload(Workload.RW_REGISTER).build();
        compare(options, history, evictRate, new SplittableRandom(seed));
    }

    // ---- long histories, evicting by time as the stream job does ----

    /**
     * Long faulty histories, both workloads, forgetting everything invoked more than a window
     * of time ago every 200 events: the checker stays within the window plus what one round
     * adds, and what it streams is still only what the whole history proves.
     */
    @Property(tries = 6, seed = "20261131")
    void longFaultyHistory_evictingByTime_staysBounded_andReportsOnlyWhatTheWholeProves(
            @ForAll boolean register, @ForAll("models") Models models,
            @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        GeneratorOptions generator = GeneratorOptions.defaults().toBuilder().txnCount(6000).concurrency(10)
                .keyCount(8).faultRates(0.02, 0.01).staleReadRate(0.02).seed(seed).build();
        List<Op> history = register ? RegisterGenerator.generate(generator) : ListAppendGenerator.generate(generator);
        CheckerOptions options = CheckerOptions.defaults().toBuilder().consistencyModels(models.models)
                .workload(register ? Workload.RW_REGISTER : Workload.LIST_APPEND).build();
        Run whole = Run.evicting(options, history, 0, new SplittableRandom(seed));
        long window = (history.get(history.size() - 1).time() - history.get(0).time()) / 20;
        Run part = new Run(options);
        int most = 0;
        for (int i = 0; i < history.size(); i++) {
            Op op = history.get(i);
            part.checker.accept(op);
            if (i % 200 == 199) {
                part.evictions += part.checker.evictInvokedBefore(op.time() - window) > 0 ? 1 : 0;
            }
            most = Math.max(most, part.checker.heldTransactions());
        }
        part.verdict = part.checker.finish();
        assertTrue(part.evictions > 10, "evicted " + part.evictions + " times");
        assertTrue(most < 6000 / 20 * 2 + 200, "held up to " + most + " transactions");
        assertTrue(part.checker.forgottenTransactions() > 6000 / 2, "forgot " + part.checker.forgottenTransactions());
        assertReportsOnlyWhatTheWholeProves(whole, part, history);
    }

    private static void compare(CheckerOptions options, List<Op> history, double evictRate, SplittableRandom random) {
        Run whole;
        try {
            whole = Run.evicting(options, history, 0, random);
        } catch (HistoryViolationException malformed) {
            return; // the mutation broke the history's protocol; nothing to compare
        }
        Run part = Run.evicting(options, history, evictRate, random);
        assertReportsOnlyWhatTheWholeProves(whole, part, history);
    }

    private static void assertReportsOnlyWhatTheWholeProves(Run whole, Run part, List<Op> history) {
        String where = "after " + part.evictions + " evictions\n" + CheckerHistories.jsonLines(history);
        Map<Long, Integer> wholeIds = wholeIds(history);
        Set<String> wholeTypes = whole.streamed.stream().map(f -> f.type().elleName()).collect(Collectors.toSet());
        for (Finding f : part.streamed) {
            if (f instanceof Finding.Cycle cycle) {
                for (Finding.Step step : cycle.steps()) {
                    int from = wholeIds.get(step.from().invokeIndex());
                    int to = wholeIds.get(step.to().invokeIndex());
                    assertTrue(hasEdge(whole.checker, from, to, step.evidence().kind().ordinal()),
                            () -> "step " + step + " of " + f + " is no edge of the whole history; " + where);
                }
            } else if (f.type() != AnomalyType.CYCLE_SEARCH_TIMEOUT) {
                assertTrue(wholeTypes.contains(f.type().elleName()),
                        () -> "streamed " + f + " but the whole history shows only " + wholeTypes + "; " + where);
            }
        }
        Set<String> ruledOutByPart = ruledOut(part.verdict);
        Set<String> ruledOutByWhole = ruledOut(whole.verdict);
        assertTrue(ruledOutByWhole.containsAll(ruledOutByPart), () -> "evicting rules out " + ruledOutByPart
                + " but the whole history only " + ruledOutByWhole + "; " + where);
    }

    private static boolean hasEdge(IncrementalChecker checker, int from, int to, int kind) {
        Edges out = new Edges();
        checker.graph().outEdges(from, out);
        for (int i = 0; i < out.size(); i++) {
            if (out.node(i) == to && out.kind(i) == kind) {
                return true;
            }
        }
        return false;
    }

    /** The whole checker's id of each transaction, by its invocation's index: ids follow invocations. */
    private static Map<Long, Integer> wholeIds(List<Op> history) {
        Map<Long, Integer> ids = new HashMap<>();
        for (Op op : history) {
            if (op.type() == OpType.INVOKE) {
                ids.put(op.index(), ids.size());
            }
        }
        return ids;
    }

    private static Set<String> ruledOut(Verdict v) {
        return new TreeSet<>(ConsistencyModels.impossibleModels(
                v.anomalyTypes().stream().map(t -> t.elleName()).collect(Collectors.toList())));
    }

    private static CheckerOptions listAppend(Models models) {
        return CheckerOptions.defaults().toBuilder().consistencyModels(models.models).build();
    }

    /** One checker's run over a history, forgetting a random prefix of what it holds now and then. */
    private static final class Run {
        final IncrementalChecker checker;
        final List<Finding> streamed = new ArrayList<>();
        Verdict verdict;
        int evictions;

        private Run(CheckerOptions options) {
            checker = new IncrementalChecker(options, new AtomTable(), streamed::add);
        }

        static Run evicting(CheckerOptions options, List<Op> history, double rate, SplittableRandom random) {
            Run run = new Run(options);
            for (Op op : history) {
                run.checker.accept(op);
                if (rate > 0 && random.nextDouble() < rate) {
                    int held = run.checker.heldTransactions();
                    run.checker.evictBelow(held == 0 ? 0 : random.nextInt(held + 1));
                    run.evictions++;
                }
            }
            try {
                run.verdict = run.checker.finish();
            } catch (RuntimeException e) {
                fail("finish() after " + run.evictions + " evictions threw " + e, e);
            }
            return run;
        }
    }
}
