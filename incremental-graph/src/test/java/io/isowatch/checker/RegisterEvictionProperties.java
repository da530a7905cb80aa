package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.gen.GeneratorArbitraries;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.RegisterGenerator;
import io.isowatch.history.Op;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Eviction keeps the rw-register inference sound: a {@link RegisterInference} that forgets a
 * prefix of the transactions several times, at random moments, while a generated history streams
 * through it, reports only edges and findings that the same inference reports for the whole
 * history, never having forgotten anything. Transactions are compared by the index of their
 * invocation. Every combination of assumed version-order sources is tried.
 *
 * <p>Besides soundness, three things that over-eager forgetting would break: an edge the
 * initial-state inference makes between two transactions retained to the end is never lost;
 * a garbage read counted after an eviction is a read of a forgotten writer's value; and the
 * inference holds traces only of keys that a retained transaction touched, none once every
 * transaction is evicted. Runtime of the class: a few seconds.
 */
class RegisterEvictionProperties {

    /** An eviction before event {@code at × events}, of {@code fraction} of the transactions retained. */
    record Eviction(double at, double fraction) {
    }

    // ---- arbitraries ----

    @Provide
    Arbitrary<GeneratorOptions> correct() {
        return GeneratorArbitraries.smallHistories(60).map(o -> o.toBuilder().staleReadRate(0).build());
    }

    /** A correct or a stale store, of up to 60 transactions. */
    @Provide
    Arbitrary<GeneratorOptions> faulty() {
        Arbitrary<Double> stale = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(0.0)),
                Tuple.of(2, Arbitraries.doubles().between(0.1, 0.6).ofScale(2)));
        return Combinators.combine(GeneratorArbitraries.smallHistories(60), stale).as((o, rate) -> o.toBuilder()
                .staleReadRate(rate).build());
    }

    /** One to four evictions; one in five forgets every transaction invoked so far. */
    @Provide
    Arbitrary<List<Eviction>> evictions() {
        Arbitrary<Double> fraction = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(1.0)),
                Tuple.of(4, Arbitraries.doubles().between(0, 1).ofScale(2)));
        return Combinators.combine(Arbitraries.doubles().between(0, 1).ofScale(3), fraction).as(Eviction::new)
                .list().ofMinSize(1).ofMaxSize(4);
    }

    @Provide
    Arbitrary<RegisterAnomalyInjector.Pattern> patternOrNone() {
        return Arbitraries.of(RegisterAnomalyInjector.Pattern.class).injectNull(0.4);
    }

    // ---- properties ----

    @Property(tries = 300, seed = "20261201")
    void correctHistory_evictedAnywhere_reportsNothing_andOnlyEdgesOfTheWholeHistory(
            @ForAll("correct") GeneratorOptions generator,
            @ForAll RegisterHistories.Sources sources,
            @ForAll("evictions") List<Eviction> evictions) {
        List<Op> history = RegisterGenerator.generate(generator);
        RegisterInferenceDriver whole = run(history, sources.options, List.of());
        assertEquals(List.of(), descriptions(whole.findings), "a correct store, seen whole");
        RegisterInferenceDriver part = run(history, sources.options, evictions);
        String where = where(history, sources, evictions);
        assertEquals(List.of(), descriptions(part.findings), where);
        assertSoundEdges(whole, part, where);
        assertRetainedEdgesKept(whole, part, where);
        for (long[] read : part.unverifiableReads) {
            int writer = part.writerOf(read[0], read[1]);
            assertTrue(writer >= 0 && writer < part.evicted(), () -> "garbage read of key " + read[0] + " value "
                    + read[1] + " counted, but its writer " + writer + " was not evicted; " + where);
        }
        Statistics.label("garbage reads counted").collect(!part.unverifiableReads.isEmpty());
        Statistics.label("edges kept").collect(bucket(part.edges.size(), whole.edges.size()));
    }

    @Property(tries = 500, seed = "20261202")
    void faultyHistory_evictedAnywhere_reportsOnlyWhatTheWholeHistoryReports(
            @ForAll("faulty") GeneratorOptions generator,
            @ForAll("patternOrNone") RegisterAnomalyInjector.Pattern pattern,
            @ForAll RegisterHistories.Sources sources,
            @ForAll("evictions") List<Eviction> evictions,
            @ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Op> history = RegisterGenerator.generate(generator);
        if (pattern != null) {
            history = RegisterAnomalyInjector.inject(history, pattern, random);
        }
        history = RegisterMutator.mutate(history, 0.2, random);
        RegisterInferenceDriver whole = run(history, sources.options, List.of());
        RegisterInferenceDriver part = run(history, sources.options, evictions);
        String where = where(history, sources, evictions);
        assertSoundEdges(whole, part, where);
        assertRetainedEdgesKept(whole, part, where);
        List<String> wholeFindings = descriptions(whole.findings);
        for (Finding f : part.findings) {
            if (f.type() == AnomalyType.LOST_UPDATE) {
                assertWithinAWholeGroup((Finding.LostUpdate) f, whole.lostUpdates, where);
            } else {
                String d = RegisterInferenceDriver.describe(f);
                assertTrue(wholeFindings.contains(d), () -> "after eviction: " + d + ", which the whole history"
                        + " does not report (it reports " + wholeFindings + "); " + where);
            }
        }
        for (Finding f : part.lostUpdates) {
            assertWithinAWholeGroup((Finding.LostUpdate) f, whole.lostUpdates, where);
        }
        Statistics.label("findings kept").collect(bucket(part.findings.size(), whole.findings.size()));
        Statistics.label("edges kept").collect(bucket(part.edges.size(), whole.edges.size()));
    }

    /**
     * The traces held are those of keys that retained transactions touched, checked after every
     * eviction of histories long enough for keys to retire; evicting every transaction leaves
     * none.
     */
    @Property(tries = 150, seed = "20261203")
    void eviction_dropsTheTracesOfKeysNoRetainedTransactionTouched(
            @ForAll("faulty") GeneratorOptions generator,
            @ForAll RegisterHistories.Sources sources,
            @ForAll("evictions") List<Eviction> evictions,
            @ForAll long seed) {
        List<Op> history = RegisterMutator.mutate(RegisterGenerator.generate(generator.toBuilder().txnCount(
                4 * generator.txnCount()).build()), 0.1, new SplittableRandom(seed));
        int[] held = {0};
        RegisterInferenceDriver part = run(history, sources.options, evictions, driver -> {
            Set<Long> keys = driver.inference().keysHeld();
            held[0] = Math.max(held[0], keys.size());
            assertTrue(driver.keysOfRetained().containsAll(keys), () -> "after evicting " + driver.evicted()
                    + ", traces of " + keys + " are held, but retained transactions touch only "
                    + driver.keysOfRetained() + "; " + where(history, sources, evictions));
        }, false);
        part.evictBelow(part.retained());
        assertEquals(Set.of(), part.inference().keysHeld(), "every transaction evicted");
        Statistics.label("most traces held after an eviction").collect(held[0]);
    }

    // ---- running ----

    static RegisterInferenceDriver run(List<Op> history, RegisterOptions sources, List<Eviction> evictions) {
        return run(history, sources, evictions, driver -> { }, true);
    }

    /**
     * Streams {@code history} through a driver, evicting as scheduled ({@code afterEach} checks
     * the driver after each eviction), and settles it when {@code finish}.
     */
    static RegisterInferenceDriver run(List<Op> history, RegisterOptions sources, List<Eviction> evictions,
                                       Consumer<RegisterInferenceDriver> afterEach, boolean finish) {
        RegisterInferenceDriver driver = new RegisterInferenceDriver(sources);
        List<Eviction> due = evictions.stream().sorted(Comparator.comparingDouble(Eviction::at)).toList();
        int next = 0;
        for (int i = 0; i <= history.size(); i++) {
            while (next < due.size() && (int) (due.get(next).at() * history.size()) <= i) {
                driver.evictBelow((int) Math.round(due.get(next++).fraction() * driver.retained()));
                afterEach.accept(driver);
            }
            if (i < history.size()) {
                driver.accept(history.get(i));
            }
        }
        if (finish) {
            driver.finish();
        }
        return driver;
    }

    // ---- assertions ----

    private static void assertSoundEdges(RegisterInferenceDriver whole, RegisterInferenceDriver part, String where) {
        List<RegisterInferenceDriver.Edge> invented = part.edges.stream().filter(e -> !whole.edges.contains(e)).toList();
        assertEquals(List.of(), invented, () -> "edges after eviction that the whole history does not have; " + where);
    }

    /** An edge the initial-state inference makes between two transactions retained to the end is kept. */
    private static void assertRetainedEdgesKept(RegisterInferenceDriver whole, RegisterInferenceDriver part,
                                                String where) {
        Set<Long> retained = part.retainedInvocations();
        List<RegisterInferenceDriver.Edge> lost = whole.onlineEdges.stream()
                .filter(e -> retained.contains(e.from()) && retained.contains(e.to()) && !part.edges.contains(e))
                .toList();
        assertEquals(List.of(), lost, () -> "edges between retained transactions lost; " + where);
    }

    /** A lost update after eviction names some of the members of a group the whole history reports. */
    private static void assertWithinAWholeGroup(Finding.LostUpdate f, List<Finding> wholeGroups, String where) {
        Set<Long> members = f.txns().stream().map(Txn::invokeIndex).collect(Collectors.toSet());
        boolean within = wholeGroups.stream().map(g -> (Finding.LostUpdate) g).anyMatch(g -> g.key() == f.key()
                && Arrays.equals(g.value(), f.value())
                && g.txns().stream().map(Txn::invokeIndex).collect(Collectors.toSet()).containsAll(members));
        assertTrue(within, () -> "after eviction: " + RegisterInferenceDriver.describe(f) + ", in no group of the whole"
                + " history's " + descriptions(wholeGroups) + "; " + where);
    }

    private static List<String> descriptions(List<Finding> findings) {
        return findings.stream().map(RegisterInferenceDriver::describe).toList();
    }

    private static String where(List<Op> history, RegisterHistories.Sources sources, List<Eviction> evictions) {
        return "under " + sources + ", evictions " + evictions + "\n" + CheckerHistories.jsonLines(history);
    }

    private static String bucket(int kept, int whole) {
        if (whole == 0) {
            return "none to keep";
        }
        return kept == whole ? "all" : kept == 0 ? "none" : "some";
    }
}
