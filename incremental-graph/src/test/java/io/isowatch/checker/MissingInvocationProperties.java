package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.gen.GeneratorArbitraries;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.gen.RegisterGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.statistics.Statistics;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Completions whose invocations are missing, as Elle checks them (its README's example and most
 * of its tests are completions alone): each is a transaction invoked at an unknown time, so
 * nothing precedes it in real time. The histories are generated whole and then lose a random
 * share of their invocations, which only takes realtime evidence away. So a correct history
 * stays valid, a faulty one rules out no model the whole history does not rule out, and the
 * checker agrees with the batch reference (which pairs completions alone the same way) on every
 * prefix. Seeds are fixed; the class runs in a few seconds.
 */
class MissingInvocationProperties {

    @Provide
    Arbitrary<GeneratorOptions> correct() {
        return GeneratorArbitraries.smallHistories(40).map(o -> o.toBuilder().staleReadRate(0).build());
    }

    @Provide
    Arbitrary<GeneratorOptions> any() {
        return GeneratorArbitraries.smallHistories(40);
    }

    @Provide
    Arbitrary<CheckerProperties.Models> models() {
        return Arbitraries.of(CheckerProperties.Models.class);
    }

    @Provide
    Arbitrary<RegisterCheckerProperties.Models> registerModels() {
        return Arbitraries.of(RegisterCheckerProperties.Models.class);
    }

    @Property(tries = 200, seed = "20261125")
    void correctListAppendHistory_withoutSomeInvocations_staysValid(
            @ForAll("correct") GeneratorOptions generator, @ForAll @DoubleRange(min = 0.05, max = 1) double dropRate,
            @ForAll long seed) {
        List<Op> history = withoutInvocations(ListAppendGenerator.generate(generator), dropRate, seed);
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        history.forEach(checker::accept);
        Verdict v = checker.finish();
        assertTrue(v.valid() != Validity.FALSE, () -> v.anomalyTypes() + "\n" + CheckerHistories.jsonLines(history));
        assertEquals(completionsAlone(history), checker.unseenInvocations());
        Statistics.label("completions alone").collect(checker.unseenInvocations() == 0 ? "0"
                : checker.unseenInvocations() < 10 ? "1-9" : "10+");
    }

    @Property(tries = 150, seed = "20261126")
    void correctRegisterHistory_withoutSomeInvocations_staysValid(
            @ForAll("correct") GeneratorOptions generator, @ForAll RegisterHistories.Sources sources,
            @ForAll @DoubleRange(min = 0.05, max = 1) double dropRate, @ForAll long seed) {
        List<Op> history = withoutInvocations(RegisterGenerator.generate(generator), dropRate, seed);
        Verdict v = RegisterHistories.check(history,
                RegisterHistories.options(Set.of("strict-serializable"), sources.options));
        assertTrue(v.valid() != Validity.FALSE, () -> sources + ": " + v.anomalyTypes() + "\n"
                + CheckerHistories.jsonLines(history));
    }

    @Property(tries = 300, seed = "20261127")
    void faultyHistory_withoutSomeInvocations_rulesOutNoMoreModels(
            @ForAll("any") GeneratorOptions generator, @ForAll @DoubleRange(min = 0.05, max = 1) double dropRate,
            @ForAll long seed) {
        List<Op> whole = CheckerMutator.mutate(ListAppendGenerator.generate(generator), 0.2, new SplittableRandom(seed));
        Verdict wholeVerdict;
        try {
            wholeVerdict = CheckerHistories.check(whole, CheckerOptions.defaults());
        } catch (HistoryViolationException malformed) {
            return; // the mutation broke the history's protocol; nothing to compare
        }
        List<Op> part = withoutInvocations(whole, dropRate, seed);
        Set<String> byPart = ruledOut(CheckerHistories.check(part, CheckerOptions.defaults()));
        Set<String> byWhole = ruledOut(wholeVerdict);
        assertTrue(byWhole.containsAll(byPart), () -> "without some invocations the history rules out " + byPart
                + " but whole only " + byWhole + "\n" + CheckerHistories.jsonLines(part));
        Statistics.label("whole invalid").collect(wholeVerdict.valid() == Validity.FALSE);
    }

    @Property(tries = 150, seed = "20261128")
    void listAppend_withoutSomeInvocations_equalsBatchReference_onEveryPrefix(
            @ForAll("any") GeneratorOptions generator, @ForAll("models") CheckerProperties.Models models,
            @ForAll @DoubleRange(min = 0.05, max = 1) double dropRate, @ForAll long seed) {
        List<Op> history = withoutInvocations(CheckerMutator.mutate(ListAppendGenerator.generate(generator), 0.1,
                new SplittableRandom(seed)), dropRate, seed);
        try {
            CheckerHistories.check(history, models.options());
        } catch (HistoryViolationException malformed) {
            return;
        }
        CheckerAgreement.forEachPrefix(history, (prefix, k) ->
                CheckerProperties.assertAgreesWithReference(prefix, models, "prefix " + k, true));
    }

    @Property(tries = 100, seed = "20261129")
    void register_withoutSomeInvocations_equalsBatchReference_onEveryPrefix(
            @ForAll("any") GeneratorOptions generator, @ForAll("registerModels") RegisterCheckerProperties.Models models,
            @ForAll RegisterHistories.Sources sources, @ForAll @DoubleRange(min = 0.05, max = 1) double dropRate,
            @ForAll long seed) {
        List<Op> history = withoutInvocations(RegisterGenerator.generate(generator), dropRate, seed);
        CheckerAgreement.forEachPrefix(history, (prefix, k) ->
                RegisterCheckerProperties.assertAgreesWithReference(prefix, models, sources, "prefix " + k));
    }

    /** The history with each invocation left out at {@code rate}; indices stay as they were. */
    static List<Op> withoutInvocations(List<Op> history, double rate, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Op> out = new ArrayList<>(history.size());
        for (Op op : history) {
            if (op.type() != OpType.INVOKE || random.nextDouble() >= rate) {
                out.add(op);
            }
        }
        return out;
    }

    /** Completions whose process has no invocation open when they come. */
    private static long completionsAlone(List<Op> history) {
        Set<Long> open = new java.util.HashSet<>();
        long alone = 0;
        for (Op op : history) {
            if (op.type() == OpType.INVOKE) {
                open.add(op.process());
            } else if (!open.remove(op.process())) {
                alone++;
            }
        }
        return alone;
    }

    private static Set<String> ruledOut(Verdict v) {
        return new TreeSet<>(ConsistencyModels.impossibleModels(
                v.anomalyTypes().stream().map(t -> t.elleName()).collect(Collectors.toList())));
    }
}
