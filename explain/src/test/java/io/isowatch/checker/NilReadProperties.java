package io.isowatch.checker;

import io.isowatch.anomaly.Boundary;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.FindingId;
import io.isowatch.explain.VerdictJson;
import io.isowatch.gen.GeneratorArbitraries;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.KeyDistribution;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.gen.RegisterGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a read of nil is taken, as Elle takes it. Jepsen writes a completed list-append read of a
 * key nobody has appended to as {@code nil}, and Elle files it under the key's initial state
 * exactly as {@code []} ({@link CompletedReads}): a history whose empty {@code :ok} reads are
 * written nil gives the very verdict and findings of the same history written {@code []}, and
 * the same verdict again when delivered reversed within the reorder window. For rw-register the
 * two spellings are one already (nil is the initial value, and the core reads a register's
 * {@code []} as nil), and the same properties hold, the findings' JSON up to how a {@code []}
 * prints ({@link #registerJson}). A nil in an {@code :info} completion is
 * unknown, so making an {@code :info} completion's reads nil only takes evidence away: it never
 * rules out another model nor makes a history invalid (the anomaly types themselves may change,
 * see {@link #infoReads_madeUnknown_neverRuleOutMoreModels}).
 *
 * <p>Histories come from the correct-by-construction stores, with stale reads, an injected
 * anomaly or (list-append) a faulty database's breakage ({@link CheckerMutator}), under models
 * with realtime, process or no session edges; jqwik's coverage checks keep a fair share of them
 * invalid and holding a rewritten read. Seeds are fixed. Runtime of the class: a few seconds.
 */
class NilReadProperties {

    /** A generated history and the options it is checked under; {@code made} says how, for jqwik's report. */
    record Case(String made, List<Op> history, CheckerOptions options) {

        boolean listAppend() {
            return options.workload() == Workload.LIST_APPEND;
        }

        @Override
        public String toString() {
            return made + ", " + history.size() + " events";
        }
    }

    // ---- arbitraries ----

    /**
     * List-append: a correct store's history, with stale reads in two cases of three, then an
     * injected anomaly (or none) and a faulty database's breakage (or none), under each of
     * {@link CheckerProperties.Models}.
     */
    @Provide
    Arbitrary<Case> listAppend() {
        return Combinators.combine(generator(), staleRate(),
                        Arbitraries.of(CheckerProperties.Models.class),
                        Arbitraries.of(AnomalyInjector.Pattern.class).injectNull(0.3), faultRate(), Arbitraries.longs())
                .as((generator, stale, models, pattern, faults, seed) -> {
                    List<Op> h = ListAppendGenerator.generate(generator.toBuilder().staleReadRate(stale).build());
                    if (pattern != null) {
                        h = AnomalyInjector.inject(h, pattern, new SplittableRandom(seed));
                    }
                    if (faults > 0) {
                        h = CheckerMutator.mutate(h, faults, new SplittableRandom(seed));
                    }
                    String made = "list-append, " + models + ", stale " + stale + ", " + pattern + ", faults " + faults;
                    return new Case(made, h, models.options());
                });
    }

    /**
     * rw-register: a correct store's history, with stale reads in two cases of three, then an
     * injected anomaly (or none), under each of {@link RegisterCheckerProperties.Models} and each
     * set of assumed version-order sources.
     */
    @Provide
    Arbitrary<Case> registers() {
        return Combinators.combine(generator(), staleRate(),
                        Arbitraries.of(RegisterCheckerProperties.Models.class),
                        Arbitraries.of(RegisterHistories.Sources.class),
                        Arbitraries.of(RegisterAnomalyInjector.Pattern.class).injectNull(0.3), Arbitraries.longs())
                .as((generator, stale, models, sources, pattern, seed) -> {
                    List<Op> h = RegisterGenerator.generate(generator.toBuilder().staleReadRate(stale).build());
                    if (pattern != null) {
                        h = RegisterAnomalyInjector.inject(h, pattern, new SplittableRandom(seed));
                    }
                    String made = "rw-register, " + models + ", " + sources + ", stale " + stale + ", " + pattern;
                    return new Case(made, h, RegisterHistories.options(models.models, sources.options));
                });
    }

    @Provide
    Arbitrary<Case> both() {
        return Arbitraries.oneOf(listAppend(), registers());
    }

    /**
     * 4..30 transactions by 1..5 clients over 1..4 keys, 1..4 micro-ops each, reads about half
     * of them, fail and info faults up to 0.2 each. A key retires after 1..4 writes, so fresh
     * keys keep coming and are read empty: with {@link GeneratorArbitraries#smallHistories}'
     * ranges most histories had no empty read to rewrite.
     */
    private static Arbitrary<GeneratorOptions> generator() {
        Arbitrary<Double> fault = Arbitraries.doubles().between(0, 0.2).ofScale(2);
        return Builders.withBuilder(() -> GeneratorOptions.defaults().toBuilder())
                .use(Arbitraries.longs().between(4, 30)).in(GeneratorOptions.Builder::txnCount)
                .use(Arbitraries.integers().between(1, 5)).in(GeneratorOptions.Builder::concurrency)
                .use(Arbitraries.integers().between(1, 4)).in(GeneratorOptions.Builder::keyCount)
                .use(Arbitraries.integers().between(1, 4)).in((o, max) -> o.txnLength(1, max))
                .use(Arbitraries.integers().between(1, 4)).in(GeneratorOptions.Builder::maxWritesPerKey)
                .use(Arbitraries.doubles().between(0.3, 0.7).ofScale(2)).in(GeneratorOptions.Builder::readProbability)
                .use(Arbitraries.of(KeyDistribution.class)).in(GeneratorOptions.Builder::keyDistribution)
                .use(Combinators.combine(fault, fault).as(Tuple::of))
                .in((o, rates) -> o.faultRates(rates.get1(), rates.get2()))
                .use(Arbitraries.longs()).in(GeneratorOptions.Builder::seed)
                .build(GeneratorOptions.Builder::build);
    }

    private static Arbitrary<Double> staleRate() {
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(0.0)),
                Tuple.of(2, Arbitraries.doubles().between(0.1, 0.5).ofScale(2)));
    }

    private static Arbitrary<Double> faultRate() {
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(0.0)),
                Tuple.of(1, Arbitraries.doubles().between(0.05, 0.4).ofScale(2)));
    }

    // ---- an :ok read of nil is the empty read ----

    @Property(tries = 1000, seed = "20261201")
    void emptyOkReads_writtenNil_sameVerdictAndFindings(@ForAll("both") Case c) {
        List<Op> empty = writtenEmpty(c);
        List<Op> nil = emptyOkReadsWrittenNil(empty);
        Checked withEmpty = check(empty, c.options());
        Checked withNil = check(nil, c.options());
        String context = c + "\n" + CheckerHistories.jsonLines(empty);
        assertSameVerdict(withEmpty.verdict(), withNil.verdict(), context);
        // The JSON holds every finding with its explanation, which renders the ops as the checker
        // stored them: a list-append nil read already made the empty one, so the two are equal.
        // A register read is stored as written, so there [] may print as [] (see registerJson).
        if (c.listAppend()) {
            assertEquals(withEmpty.json(), withNil.json(), () -> "verdict JSON, " + context);
        } else {
            assertEquals(registerJson(withEmpty.json()), registerJson(withNil.json()),
                    () -> "verdict JSON, " + context);
        }
        assertEquals(withEmpty.streamed(), withNil.streamed(), () -> "streamed finding ids, " + context);

        int rewritten = rewrittenReads(empty, nil);
        boolean invalid = withNil.verdict().valid() == Validity.FALSE;
        Statistics.label("workload").collect(c.listAppend() ? "list-append" : "rw-register");
        Statistics.label("session edges").collect(withNil.sessionEdges());
        Statistics.label("rewritten reads").collect(rewritten == 0 ? "0" : rewritten < 5 ? "1-4" : "5+");
        Statistics.label("invalid").collect(invalid);
        Statistics.label("invalid with a rewritten read").collect(invalid && rewritten > 0);
        Statistics.label("invalid").coverage(k -> k.check(true).percentage(p -> p >= 25));
        Statistics.label("invalid").coverage(k -> k.check(false).percentage(p -> p >= 20));
        Statistics.label("invalid with a rewritten read").coverage(k -> k.check(true).percentage(p -> p >= 20));
        Statistics.label("rewritten reads").coverage(k -> k.check("0").percentage(p -> p <= 50));
    }

    /**
     * Delivered reversed in blocks as long as the reorder window (as {@link GoldenHistoriesTest}
     * reverses a golden history within its window; up to 64, enough to reverse a short history
     * wholly), a history with its empty
     * reads written nil gets the verdict it gets in order with them written {@code []}.
     */
    @Property(tries = 300, seed = "20261202")
    void emptyOkReads_writtenNil_deliveredReversedWithinWindow_sameVerdict(
            @ForAll("both") Case c, @ForAll @IntRange(min = 1, max = 64) int window) {
        List<Op> empty = writtenEmpty(c);
        List<Op> nil = emptyOkReadsWrittenNil(empty);
        Verdict inOrder = check(empty, c.options()).verdict();
        Verdict reversed = check(reversedInBlocks(nil, window), c.options().toBuilder().reorderWindow(window)
                .build()).verdict();
        assertSameVerdict(inOrder, reversed, "window " + window + ", " + c + "\n" + CheckerHistories.jsonLines(empty));
        Statistics.label("workload").collect(c.listAppend() ? "list-append" : "rw-register");
        Statistics.label("reversed wholly").collect(window >= nil.size());
        Statistics.label("rewritten").collect(rewrittenReads(empty, nil) > 0);
        Statistics.label("rewritten").coverage(k -> k.check(true).percentage(p -> p >= 30));
    }

    // ---- an :info read of nil is unknown ----

    /**
     * Each process's last {@code :ok} completion is made {@code :info} with its reads kept (a
     * client that read, then lost the connection before the commit was acknowledged); writing
     * those reads nil then makes them unknown. That only takes evidence away: no model is ruled
     * out that was not before, and a history not invalid does not become invalid. An
     * rw-register's {@code :info} reads are not used at all (Elle's {@code ext-index} takes
     * {@code :ok} reads only), so there the verdict stays exactly the same.
     *
     * <p>The set of anomaly types need not shrink, though: a type the lost evidence hid can show.
     * Seen here: {@code empty-transaction-graph} once the last edge goes (an unknown, not an
     * alarm); a weaker cycle of the same component that Elle's reporting rules left out while the
     * stronger one stood (G0 to G0-realtime, {@link #infoReadMadeUnknown_g0Lost_showsTheRealtimeCycleItHid};
     * G-single-item to G2-item); and a {@code *-cycle-exists} fallback that a lost type had
     * dropped (a garbage read in the {@code :info} read rules out read-committed, and with it the
     * fallback). So each added type must rule out only models the reads had already ruled out.
     */
    @Property(tries = 500, seed = "20261203")
    void infoReads_madeUnknown_neverRuleOutMoreModels(@ForAll("both") Case c) {
        List<Op> known = lastOfEachProcessCrashed(c.history());
        List<Op> unknown = infoReadsWrittenNil(known);
        Verdict withReads = check(known, c.options()).verdict();
        Verdict withoutReads = check(unknown, c.options()).verdict();
        String context = c + "; with the :info reads " + withReads.valid() + " "
                + CheckerHistories.typeNames(withReads) + ", made unknown " + withoutReads.valid() + " "
                + CheckerHistories.typeNames(withoutReads) + "\n" + CheckerHistories.jsonLines(known);
        if (!c.listAppend()) {
            assertSameVerdict(withReads, withoutReads, context);
        }
        assertTrue(ruledOut(withReads).containsAll(ruledOut(withoutReads)), () -> "models ruled out, " + context);
        assertTrue(withReads.valid() == Validity.FALSE || withoutReads.valid() != Validity.FALSE,
                () -> "made invalid, " + context);
        SortedSet<String> added = new TreeSet<>(CheckerHistories.typeNames(withoutReads));
        added.removeAll(CheckerHistories.typeNames(withReads));
        for (String type : added) {
            SortedSet<String> models = ruledOutBy(type);
            assertTrue(ruledOut(withReads).containsAll(models), () -> type + " added, ruling out " + models + ", "
                    + context);
        }

        boolean rewritten = rewrittenReads(known, unknown) > 0;
        Statistics.label("workload").collect(c.listAppend() ? "list-append" : "rw-register");
        Statistics.label("invalid with a rewritten :info read")
                .collect(rewritten && withReads.valid() == Validity.FALSE);
        Statistics.label("types").collect(added.isEmpty()
                ? CheckerHistories.typeNames(withReads).equals(CheckerHistories.typeNames(withoutReads))
                        ? "same" : "fewer"
                : "added " + added);
        Statistics.label("invalid with a rewritten :info read")
                .coverage(k -> k.check(true).percentage(p -> p >= 10));
    }

    /**
     * T1 appends x 1 and y 2; T2, invoked after T1 completed, appends x 2, reads x as [1 2] and
     * appends y 1, then crashes; T3 reads y as [1 2]. With T2's read, x orders T1 before T2 and
     * y orders T2 before T1: G0, which hides the realtime cycle T1 -rt-> T2 -ww-> T1. With the
     * read made nil the x edge is gone and that G0-realtime shows: read-uncommitted is no longer
     * ruled out, only strong-read-uncommitted, which G0 already ruled out.
     */
    @Example
    void infoReadMadeUnknown_g0Lost_showsTheRealtimeCycleItHid() {
        List<Op> history = CheckerHistories.history()
                .txn(0, "a:x:1 a:y:2")
                .txn(1, "a:x:2 r:x:1,2 a:y:1")
                .txn(2, "r:y:1,2")
                .build();
        List<Op> known = new ArrayList<>(history);
        known.set(3, crashed(history.get(3)));
        CheckerOptions strict = CheckerOptions.defaults().toBuilder()
                .consistencyModels(Set.of(ConsistencyModel.STRICT_SERIALIZABLE)).build();
        Verdict withRead = check(known, strict).verdict();
        Verdict withoutRead = check(infoReadsWrittenNil(known), strict).verdict();
        assertEquals(Set.of("G0"), CheckerHistories.typeNames(withRead));
        assertEquals(Set.of("G0-realtime"), CheckerHistories.typeNames(withoutRead));
        assertEquals(Set.of("read-uncommitted"), withRead.not());
        assertEquals(Set.of("strong-read-uncommitted"), withoutRead.not());
        assertTrue(ruledOut(withRead).containsAll(ruledOut(withoutRead)));
        assertTrue(ruledOut(withRead).size() > ruledOut(withoutRead).size());
    }

    // ---- helpers ----

    /** What a run of the checker gives: the verdict, its JSON and the ids of the findings streamed on the way. */
    private record Checked(Verdict verdict, String json, List<String> streamed, String sessionEdges) {
    }

    private static Checked check(List<Op> ops, CheckerOptions options) {
        AtomTable atoms = new AtomTable();
        List<Finding> found = new ArrayList<>();
        IncrementalChecker checker = new IncrementalChecker(options, atoms, found::add);
        ops.forEach(checker::accept);
        Verdict v = checker.finish();
        List<String> ids = new ArrayList<>();
        for (Finding f : found) {
            ids.add(FindingId.of(f, atoms, "h"));
        }
        String sessions = checker.usesRealtime() ? "realtime" : checker.usesProcess() ? "process" : "none";
        // No run time (NaN is written null): the JSON is the same for the same verdict.
        return new Checked(v, VerdictJson.toJson(v, atoms, Double.NaN), ids, sessions);
    }

    private static void assertSameVerdict(Verdict expected, Verdict actual, String context) {
        assertEquals(expected.valid(), actual.valid(), () -> "valid, " + context);
        assertEquals(expected.anomalyTypes(), actual.anomalyTypes(), () -> "anomaly types, " + context);
        assertEquals(expected.not(), actual.not(), () -> "not, " + context);
        assertEquals(expected.alsoNot(), actual.alsoNot(), () -> "also-not, " + context);
    }

    /**
     * A register verdict's JSON with every empty read printed nil, so that the same history
     * written with {@code []} and with nil compare equal. They differ only where a finding's ops
     * print in the notation {@code Notation.of} guesses from its ops: a finding whose transactions
     * write nothing (an internal read-only transaction, say) prints as list-append, where a
     * register's {@code []} prints {@code []}, in the op, the mop and the explanation.
     */
    private static String registerJson(String json) {
        return json.replaceAll("\\[\"r\",([^,\\[\\]]+),\\[\\]\\]", "[\"r\",$1,null]")
                .replaceAll("\\[:r ([^ \\[\\]]+) \\[\\]\\]", "[:r $1 nil]")
                .replaceAll(" = \\[\\],", " = nil,");
    }

    /** The models an anomaly of this type rules out, by the names a verdict's boundary uses. */
    private static SortedSet<String> ruledOutBy(String type) {
        Boundary b = ConsistencyModels.friendlyBoundary(Set.of(type));
        SortedSet<String> models = new TreeSet<>(b.not());
        models.addAll(b.alsoNot());
        return models;
    }

    private static SortedSet<String> ruledOut(Verdict v) {
        SortedSet<String> models = new TreeSet<>(v.not());
        models.addAll(v.alsoNot());
        return models;
    }

    /**
     * The history with its empty {@code :ok} reads written {@code []}: as generated for
     * list-append; for rw-register, whose generator writes the initial value nil, with those
     * reads made {@code []}, as the agent's JDBC workload writes them (the core reads a
     * register's {@code []} as nil: docs/elle-compatibility.md).
     */
    private static List<Op> writtenEmpty(Case c) {
        return c.listAppend() ? c.history() : okNilReadsWrittenEmpty(c.history());
    }

    /** Every {@code :ok} read that returned the empty list, written nil; nothing else changed. */
    private static List<Op> emptyOkReadsWrittenNil(List<Op> ops) {
        return rewriteReads(ops, OpType.OK, r -> r.known() && r.length() == 0, null);
    }

    /** Every read of an {@code :info} completion written nil, as Jepsen writes a crashed read. */
    private static List<Op> infoReadsWrittenNil(List<Op> ops) {
        return rewriteReads(ops, OpType.INFO, MicroOp.Read::known, null);
    }

    /** Every {@code :ok} read of nil written as the empty list. */
    private static List<Op> okNilReadsWrittenEmpty(List<Op> ops) {
        return rewriteReads(ops, OpType.OK, r -> !r.known(), new long[0]);
    }

    private static List<Op> rewriteReads(List<Op> ops, OpType type, Predicate<MicroOp.Read> which,
                                         long[] values) {
        List<Op> out = new ArrayList<>(ops.size());
        for (Op op : ops) {
            if (op.type() != type) {
                out.add(op);
                continue;
            }
            List<MicroOp> mops = new ArrayList<>(op.value().size());
            for (MicroOp m : op.value()) {
                mops.add(m instanceof MicroOp.Read r && which.test(r) ? new MicroOp.Read(r.key(), values) : m);
            }
            out.add(new Op(op.index(), op.time(), op.type(), op.process(), mops, op.sourceLine()));
        }
        return out;
    }

    /** Reads that differ between two versions of a history, event by event. */
    private static int rewrittenReads(List<Op> before, List<Op> after) {
        int n = 0;
        for (int i = 0; i < before.size(); i++) {
            List<MicroOp> a = before.get(i).value();
            List<MicroOp> b = after.get(i).value();
            for (int j = 0; j < a.size(); j++) {
                if (a.get(j) instanceof MicroOp.Read r && r.known() != ((MicroOp.Read) b.get(j)).known()) {
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * The history with each process's last completion, when {@code :ok}, made {@code :info}
     * with its reads kept. Only a last completion may be {@code :info}: a crashed process never
     * invokes again.
     */
    private static List<Op> lastOfEachProcessCrashed(List<Op> ops) {
        Map<Long, Integer> last = new HashMap<>();
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).type() != OpType.INVOKE) {
                last.put(ops.get(i).process(), i);
            }
        }
        List<Op> out = new ArrayList<>(ops);
        for (int i : last.values()) {
            Op op = out.get(i);
            if (op.type() == OpType.OK) {
                out.set(i, crashed(op));
            }
        }
        return out;
    }

    /** The {@code :ok} completion made {@code :info}, its reads kept. */
    private static Op crashed(Op ok) {
        return new Op(ok.index(), ok.time(), OpType.INFO, ok.process(), ok.value(), ok.sourceLine());
    }

    /**
     * The events in blocks of {@code window}, each block reversed: no event arrives more than
     * {@code window - 1} places from its own, and a window at least the history's length
     * reverses it wholly.
     */
    private static List<Op> reversedInBlocks(List<Op> ops, int window) {
        List<Op> out = new ArrayList<>(ops.size());
        for (int from = 0; from < ops.size(); from += window) {
            List<Op> block = new ArrayList<>(ops.subList(from, Math.min(ops.size(), from + window)));
            Collections.reverse(block);
            out.addAll(block);
        }
        return out;
    }
}
