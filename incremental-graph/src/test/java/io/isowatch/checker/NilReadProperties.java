package io.isowatch.checker;

import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.FindingId;
import io.isowatch.explain.VerdictJson;
import io.isowatch.gen.GeneratorArbitraries;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jepsen writes a completed read of an empty list-append key as {@code nil}; Elle reads it as the
 * initial state, exactly as {@code []} (docs/elle-compatibility.md). So a history whose empty
 * {@code :ok} reads are written {@code nil} must give the very verdict and findings of the same
 * history written with {@code []}, under every model, in order and reordered; and making an
 * {@code :info} completion's reads unknown ({@code nil}, as Jepsen writes a crashed read) can only
 * take evidence away: it never rules out a model that was not ruled out, nor makes a valid
 * history invalid.
 *
 * <p>Histories come from the correct-by-construction generator, with an injected anomaly or
 * broken as a faulty database breaks them ({@link CheckerMutator}), so most are invalid. Seeds
 * are fixed; the class runs in a few seconds.
 */
class NilReadProperties {

    @Provide
    Arbitrary<GeneratorOptions> small() {
        return GeneratorArbitraries.smallHistories(30);
    }

    @Provide
    Arbitrary<CheckerProperties.Models> models() {
        return Arbitraries.of(CheckerProperties.Models.class);
    }

    @Provide
    Arbitrary<AnomalyInjector.Pattern> patternOrNone() {
        return Arbitraries.of(AnomalyInjector.Pattern.class).injectNull(0.3);
    }

    @Property(tries = 300, seed = "20261124")
    void emptyOkReadsWrittenNil_sameVerdictAndFindings(@ForAll("small") GeneratorOptions generator,
                                                      @ForAll("models") CheckerProperties.Models models,
                                                      @ForAll("patternOrNone") AnomalyInjector.Pattern pattern,
                                                      @ForAll @DoubleRange(min = 0.0, max = 0.4) double faults,
                                                      @ForAll long seed) {
        List<Op> history = faulty(generator, pattern, faults, seed);
        List<Op> nil = rewrite(history, op -> op.type() == OpType.OK, true);
        Result withEmpty = check(history, models.options());
        Result withNil = check(nil, models.options());
        String context = models + "\n" + CheckerHistories.jsonLines(nil);
        assertEquals(withEmpty.json(), withNil.json(), context);
        assertEquals(withEmpty.streamed(), withNil.streamed(), context);
        Statistics.label("rewritten").collect(!nil.equals(history));
        Statistics.label("invalid").collect(withNil.verdict().valid() == Validity.FALSE);
        Statistics.label("rewritten").coverage(c -> c.check(true).percentage(p -> p > 30));
        Statistics.label("invalid").coverage(c -> c.check(true).percentage(p -> p > 30));
    }

    @Property(tries = 150, seed = "20261125")
    void emptyOkReadsWrittenNil_reorderedWithinWindow_sameVerdict(@ForAll("small") GeneratorOptions generator,
                                                                  @ForAll("patternOrNone") AnomalyInjector.Pattern pattern,
                                                                  @ForAll @DoubleRange(min = 0.0, max = 0.4) double faults,
                                                                  @ForAll @IntRange(min = 1, max = 16) int window,
                                                                  @ForAll long seed) {
        List<Op> history = faulty(generator, pattern, faults, seed);
        List<Op> nil = rewrite(history, op -> op.type() == OpType.OK, true);
        List<Op> shuffled = CheckerAgreement.jitter(nil, window, new SplittableRandom(seed));
        CheckerAgreement.assertReorderedSame(history, shuffled, CheckerOptions.defaults(), window,
                "nil reads reordered: ", CheckerHistories::check);
    }

    @Property(tries = 300, seed = "20261126")
    void infoReadsMadeUnknown_neverRuleOutMoreModels(@ForAll("small") GeneratorOptions generator,
                                               @ForAll("models") CheckerProperties.Models models,
                                               @ForAll("patternOrNone") AnomalyInjector.Pattern pattern,
                                               @ForAll @DoubleRange(min = 0.0, max = 0.4) double faults,
                                               @ForAll long seed) {
        List<Op> history = lastOfEachProcessCrashed(faulty(generator, pattern, faults, seed));
        List<Op> unknown = rewrite(history, op -> op.type() == OpType.INFO, false);
        Verdict known = CheckerHistories.check(history, models.options());
        Verdict fewer = CheckerHistories.check(unknown, models.options());
        // A cycle may then be reported under another name (a data cycle lost, the realtime one
        // it implied now shown), but no model may be ruled out that was not before.
        java.util.Set<String> ruledOut = ruledOut(known);
        assertTrue(ruledOut.containsAll(ruledOut(fewer)), () -> models + ": unknown :info reads ruled out "
                + ruledOut(fewer) + " beyond " + ruledOut + "\n" + CheckerHistories.jsonLines(unknown));
        assertTrue(known.valid() == Validity.FALSE || fewer.valid() != Validity.FALSE, () -> models
                + ": unknown :info reads made a valid history invalid\n" + CheckerHistories.jsonLines(unknown));
        Statistics.label("info reads").collect(!unknown.equals(history));
        Statistics.label("info reads").coverage(c -> c.check(true).percentage(p -> p > 30));
    }

    // ---- helpers ----

    private static java.util.Set<String> ruledOut(Verdict v) {
        java.util.Set<String> models = new java.util.TreeSet<>(v.not());
        models.addAll(v.alsoNot());
        return models;
    }

    /** The verdict as JSON (without the run time) and the ids of the findings streamed on the way. */
    private record Result(Verdict verdict, String json, List<String> streamed) {
    }

    private static Result check(List<Op> ops, CheckerOptions options) {
        AtomTable atoms = new AtomTable();
        List<Finding> found = new ArrayList<>();
        IncrementalChecker checker = new IncrementalChecker(options, atoms, found::add);
        ops.forEach(checker::accept);
        Verdict v = checker.finish();
        List<String> ids = new ArrayList<>();
        for (Finding f : found) {
            ids.add(FindingId.of(f, atoms, "h"));
        }
        Collections.sort(ids);
        return new Result(v, VerdictJson.toJson(v, atoms, Double.NaN), ids);
    }

    /**
     * A generated history with stale reads, an injected anomaly (when a pattern is given) and
     * broken by a faulty database at the given rate (not at 0).
     */
    private static List<Op> faulty(GeneratorOptions generator, AnomalyInjector.Pattern pattern, double faults,
                                   long seed) {
        List<Op> history = ListAppendGenerator.generate(generator.withStaleReadRate(0.1));
        if (pattern != null) {
            history = AnomalyInjector.inject(history, pattern, new SplittableRandom(seed));
        }
        return faults == 0 ? history : CheckerMutator.mutate(history, faults, new SplittableRandom(seed));
    }

    /**
     * The history with each process's last completion, when :ok, turned :info with its reads
     * kept: a client that read, then lost its connection before the commit was acknowledged.
     * Only a last completion may be :info (a crashed process never invokes again).
     */
    private static List<Op> lastOfEachProcessCrashed(List<Op> ops) {
        java.util.Map<Long, Integer> last = new java.util.HashMap<>();
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).type() != OpType.INVOKE) {
                last.put(ops.get(i).process(), i);
            }
        }
        List<Op> out = new ArrayList<>(ops);
        for (int i : last.values()) {
            Op op = out.get(i);
            if (op.type() == OpType.OK) {
                out.set(i, new Op(op.index(), op.time(), OpType.INFO, op.process(), op.value(), op.sourceLine()));
            }
        }
        return out;
    }

    /**
     * The history with the reads of matching completions written as nil: only empty ones when
     * {@code emptyOnly}, every read otherwise.
     */
    private static List<Op> rewrite(List<Op> ops, Predicate<Op> which, boolean emptyOnly) {
        List<Op> out = new ArrayList<>(ops.size());
        for (Op op : ops) {
            if (!which.test(op)) {
                out.add(op);
                continue;
            }
            List<MicroOp> mops = new ArrayList<>(op.value().size());
            for (MicroOp m : op.value()) {
                boolean rewrite = m instanceof MicroOp.Read r && r.known() && (!emptyOnly || r.length() == 0);
                mops.add(rewrite ? new MicroOp.Read(m.key(), null) : m);
            }
            out.add(new Op(op.index(), op.time(), op.type(), op.process(), mops, op.sourceLine()));
        }
        return out;
    }
}
