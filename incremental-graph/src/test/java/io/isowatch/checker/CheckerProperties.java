package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.anomaly.Finding;
import io.isowatch.gen.GeneratorArbitraries;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.testing.Golden;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Properties of {@link IncrementalChecker} over generated histories: correct histories stay
 * valid at every prefix; the checker agrees with the plain {@link BatchReference} (Elle's rules
 * restated) at every prefix, on correct histories, on histories with an injected anomaly and on
 * histories a faulty database could produce ({@link CheckerMutator}); delivery order within the
 * reorder window does not matter; and an injected anomaly is reported exactly.
 *
 * <p>Seeds are fixed. A shrunk counterexample becomes a golden history and, while the bug is
 * open, a failing example in {@link CheckerElleDiscrepancyTest} and a {@link BatchDeviation} the
 * mutated-history property tolerates. Runtime of the class: about 10 s.
 */
class CheckerProperties {

    private static final Set<String> STRICT = Set.of("strict-serializable");
    private static final Set<String> STRICT_PROHIBITED = ConsistencyModels.prohibitedAnomalyTypes(STRICT, Set.of());

    /** Options the differential property checks under: each builds a different session graph or none. */
    enum Models {
        STRICT_SERIALIZABLE(Set.of("strict-serializable"), Set.of()),
        SERIALIZABLE(Set.of("serializable"), Set.of()),
        STRONG_SESSION_SERIALIZABLE(Set.of("strong-session-serializable"), Set.of()),
        SNAPSHOT_ISOLATION(Set.of("snapshot-isolation"), Set.of()),
        READ_COMMITTED(Set.of("read-committed"), Set.of()),
        G1A_ONLY(Set.of(), Set.of("G1a"));

        final Set<String> models;
        final Set<String> anomalies;

        Models(Set<String> models, Set<String> anomalies) {
            this.models = models;
            this.anomalies = anomalies;
        }

        CheckerOptions options() {
            return CheckerOptions.defaults().toBuilder().consistencyModels(ConsistencyModel.ofNames(models))
                    .anomalies(anomalies).build();
        }
    }

    /** Strict-serializable by construction: the generator's stale-read fault stays off. */
    @Provide
    Arbitrary<GeneratorOptions> small() {
        return GeneratorArbitraries.smallHistories(40).map(o -> o.toBuilder().staleReadRate(0).build());
    }

    @Provide
    Arbitrary<GeneratorOptions> tiny() {
        return GeneratorArbitraries.smallHistories(16).map(o -> o.toBuilder().staleReadRate(0).build());
    }

    @Provide
    Arbitrary<AnomalyInjector.Pattern> patternOrNone() {
        return Arbitraries.of(AnomalyInjector.Pattern.class).injectNull(0.25);
    }

    @Provide
    Arbitrary<Models> models() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Arbitraries.just(Models.STRICT_SERIALIZABLE)),
                net.jqwik.api.Tuple.of(3, Arbitraries.of(Models.class)));
    }

    @Provide
    Arbitrary<Golden.Case> golden() {
        return Arbitraries.of(Golden.cases());
    }

    // ---- correct by construction ----

    @Property(tries = 200, seed = "20250201")
    void correctByConstruction_validAtEveryPrefix(@ForAll("small") GeneratorOptions generator) {
        List<Op> history = ListAppendGenerator.generate(generator);
        for (int k = 0; k <= history.size(); k++) {
            List<Finding> streamed = new ArrayList<>();
            IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable(),
                    streamed::add);
            history.subList(0, k).forEach(checker::accept);
            Verdict v = checker.finish();
            int prefix = k;
            assertNotEquals(Validity.FALSE, v.valid(),
                    () -> "prefix " + prefix + " invalid: " + v.anomalyTypes() + "\n" + jsonl(history, prefix));
            for (Finding f : streamed) {
                assertFalse(STRICT_PROHIBITED.contains(f.type().elleName()),
                        () -> "prefix " + prefix + " streamed " + f + "\n" + jsonl(history, prefix));
            }
        }
    }

    // ---- differential ----

    @Property(tries = 250, seed = "20250202")
    void incremental_equalsBatchReference_onEveryPrefix(@ForAll("small") GeneratorOptions generator,
                                                        @ForAll("patternOrNone") AnomalyInjector.Pattern pattern,
                                                        @ForAll("models") Models models,
                                                        @ForAll long spliceSeed) {
        List<Op> history = generated(generator, pattern, spliceSeed);
        CheckerAgreement.forEachPrefix(history,
                (prefix, k) -> assertAgreesWithReference(prefix, models, "prefix " + k, false));
    }

    /**
     * As the differential property, on histories broken the way a faulty database breaks them
     * ({@link CheckerMutator}): anomalies in every combination, not only the injected shapes.
     * Known departures from Elle are tolerated (see {@link #assertAgreesWithReference}).
     */
    @Property(tries = 300, seed = "20250206")
    void incremental_equalsBatchReference_onMutatedHistories_onEveryPrefix(
            @ForAll("tiny") GeneratorOptions generator, @ForAll("models") Models models,
            @ForAll @net.jqwik.api.constraints.DoubleRange(min = 0.05, max = 0.5) double rate, @ForAll long seed) {
        List<Op> history = CheckerMutator.mutate(ListAppendGenerator.generate(generator), rate,
                new SplittableRandom(seed));
        CheckerAgreement.forEachPrefix(history,
                (prefix, k) -> assertAgreesWithReference(prefix, models, "prefix " + k, true));
    }

    /**
     * The checker's verdict equals the reference's. With {@code tolerateKnown}, a mismatch is
     * accepted when the reference imitating the checker's known departures from Elle
     * ({@link BatchDeviation}, each with a failing example in
     * {@link CheckerElleDiscrepancyTest}) agrees on every type those departures leave certain.
     */
    static void assertAgreesWithReference(List<Op> ops, Models models, String where, boolean tolerateKnown) {
        BatchReference.Result expected = BatchReference.check(ops, models.models, models.anomalies);
        if (expected == null) {
            return;
        }
        Verdict actual = CheckerHistories.check(ops, models.options());
        if (tolerateKnown && !CheckerAgreement.agree(expected, actual)) {
            BatchReference.Result known = BatchReference.check(ops, models.models, models.anomalies,
                    EnumSet.allOf(BatchDeviation.class));
            if (known != null && agreeOnCertain(known, actual)) {
                return;
            }
        }
        CheckerAgreement.assertSameVerdict(expected, actual, where + " under " + models
                + "; reference " + expected + "\n" + CheckerHistories.jsonLines(ops));
    }

    /** Agreement on every type the imitated departures leave certain, and fully when the types match. */
    private static boolean agreeOnCertain(BatchReference.Result r, Verdict v) {
        Set<String> actual = CheckerHistories.typeNames(v);
        Set<String> union = new java.util.TreeSet<>(actual);
        union.addAll(r.types());
        for (String t : union) {
            if (!r.uncertain(t) && actual.contains(t) != r.types().contains(t)) {
                return false;
            }
        }
        if (!actual.equals(r.types())) {
            return true;
        }
        // The boundary comes from every type found, reportable or not, uncertain ones included.
        boolean certain = r.uncertain().isEmpty() && !r.cyclesUncertain();
        return certain ? CheckerAgreement.agree(r, v) : r.valid() == v.valid();
    }

    // ---- reordering ----

    @Property(tries = 200, seed = "20250203")
    void reorderedWithinWindow_sameVerdict(@ForAll("small") GeneratorOptions generator,
                                           @ForAll("patternOrNone") AnomalyInjector.Pattern pattern,
                                           @ForAll @IntRange(min = 1, max = 16) int window,
                                           @ForAll long seed) {
        List<Op> history = generated(generator, pattern, seed);
        assertReorderedSame(history, CheckerOptions.defaults(), window, seed);
    }

    @Property(tries = 150, seed = "20250204")
    void reorderedWithinWindow_goldenHistory_sameVerdict(@ForAll("golden") Golden.Case golden,
                                                         @ForAll @IntRange(min = 1, max = 16) int window,
                                                         @ForAll long seed) {
        CheckerHistories.Loaded h = CheckerHistories.load(golden);
        assertReorderedSame(h.ops(), h.options(), window, seed);
    }

    private static void assertReorderedSame(List<Op> history, CheckerOptions options, int window, long seed) {
        List<Op> shuffled = CheckerAgreement.jitter(history, window, new SplittableRandom(seed));
        CheckerAgreement.assertReorderedSame(history, shuffled, options, window, "", CheckerHistories::check);
    }

    // ---- injected anomalies ----

    @Property(tries = 250, seed = "20250205")
    void injectedAnomaly_reportedExactly(@ForAll("small") GeneratorOptions generator,
                                         @ForAll AnomalyInjector.Pattern pattern,
                                         @ForAll long seed) {
        List<Op> history = generated(generator, pattern, seed);
        Verdict v = CheckerHistories.check(history, CheckerOptions.defaults());
        String context = pattern + "\n" + CheckerHistories.jsonLines(history);
        assertEquals(new java.util.TreeSet<>(pattern.expected), CheckerHistories.typeNames(v), context);
        assertEquals(Validity.FALSE, v.valid(), context);
        BatchReference.Result r = BatchReference.check(history, STRICT, Set.of());
        if (r != null) {
            assertEquals(new java.util.TreeSet<>(pattern.expected), r.types(), "reference, " + context);
        }
    }

    // ---- helpers ----

    private static List<Op> generated(GeneratorOptions generator, AnomalyInjector.Pattern pattern, long seed) {
        List<Op> history = ListAppendGenerator.generate(generator);
        return pattern == null ? history : AnomalyInjector.inject(history, pattern, new SplittableRandom(seed));
    }

    private static String jsonl(List<Op> history, int prefix) {
        return CheckerHistories.jsonLines(history.subList(0, prefix));
    }
}
