package io.isowatch.checker;

import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.gen.GeneratorArbitraries;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
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
 * Eviction only ever loses: a {@link ListAppendInference} that forgets prefixes of its
 * transactions at random moments reports no edge and no finding that the same inference, run
 * without evicting, does not report too (transactions compared by the history index of their
 * invocation). Each run goes on after every eviction and settles at the end; the reads stored as
 * prefixes of an order keep decoding to what was read throughout ({@link InferenceRun#microOps}),
 * and a key is kept exactly while a retained transaction has appended to it or read it.
 *
 * <p>On a correct history the run without evicting is the whole history's. On a faulty one, a
 * transaction forgotten while pending never completes (the checker skips its completion), and
 * its reads can decide whether other reads of a key agree: without the read {@code [2]}, reads
 * {@code []} then {@code [1]} agree and yield rw to the writer of 1; with it, the key's reads
 * disagree and that rw is not inferred. So the exact reference is the history without those
 * completions (as a checker that lost them would see it); against the whole history, edges are
 * compared where its reads of every key agree. One more difference is allowed: a key touched
 * again after an eviction dropped its trace starts afresh, as in a checker that saw the history
 * from the cut. Its findings may then name a later transaction than the whole history's (the
 * first retained reader of an aborted append, say), and where the reference's reads of the key
 * disagree, the fresh trace may take reads that agree with each other as its order: findings
 * about such a key, and edges such a disagreeing key could explain, are excused, and only there.
 */
class ListAppendEvictionProperties {

    @Property(tries = 500, seed = "20270311")
    void correctHistory_evictedAnywhere_findsNothing_andNoEdgeTheWholeRunLacks(
            @ForAll(supplier = GeneratorArbitraries.Correct.class) GeneratorOptions generator,
            @ForAll @IntRange(min = 1, max = 4) int evictions,
            @ForAll long evictionSeed) {
        List<Op> history = ListAppendGenerator.generate(generator);
        InferenceRun whole = runWhole(history);
        InferenceRun part = runEvicting(history, evictions, new SplittableRandom(evictionSeed));

        assertEquals(List.of(), whole.findings(), "a correct history has no finding");
        assertEquals(List.of(), part.findings(), "nor after evictions");
        assertEquals(List.of(), part.inference().lostUpdates());
        assertEdgesOf(whole, part, Set.of(), Map.of());
    }

    @Property(tries = 1000, seed = "20270312")
    void faultyHistory_evictedAnywhere_reportsOnlyWhatTheRunWithoutEvictingReports(
            @ForAll(supplier = GeneratorArbitraries.Any.class) GeneratorOptions generator,
            @ForAll @LongRange(min = 0, max = 1000) long mutationSeed,
            @ForAll @IntRange(min = 1, max = 4) int evictions,
            @ForAll long evictionSeed) {
        List<Op> history = CheckerMutator.mutate(ListAppendGenerator.generate(generator), 0.25,
                new SplittableRandom(mutationSeed));
        InferenceRun whole;
        try {
            whole = runWhole(history);
        } catch (HistoryViolationException malformed) {
            return; // the mutation broke the history's protocol; nothing to compare
        }
        InferenceRun part = runEvicting(history, evictions, new SplittableRandom(evictionSeed));
        InferenceRun seen = runWhole(history.stream().filter(op -> !part.skipped().contains(op.index())).toList());
        Set<Long> restarted = part.restartedKeys();
        Set<Long> restartedAndDisagreeing = new TreeSet<>(restarted);
        restartedAndDisagreeing.retainAll(incompatibleKeys(seen));
        Map<Long, List<MicroOp>> ops = completedMicroOps(history);

        if (incompatibleKeys(whole).isEmpty()) {
            assertEdgesOf(whole, part, Set.of(), ops);
        }
        assertEdgesOf(seen, part, restartedAndDisagreeing, ops);
        Set<String> seenFindings = seen.findings().stream()
                .filter(f -> !(f instanceof Finding.LostUpdate))
                .map(ListAppendEvictionProperties::signature)
                .collect(Collectors.toCollection(TreeSet::new));
        for (Finding f : part.findings()) {
            if (f instanceof Finding.LostUpdate lost) {
                assertWithinAGroupOf(seen, lost);
            } else {
                assertTrue(seenFindings.contains(signature(f)) || restarted.contains(key(f)),
                        () -> "after eviction " + signature(f) + ", which the run without evicting does not report: "
                                + seenFindings);
            }
        }
        for (Finding f : part.inference().lostUpdates()) {
            assertWithinAGroupOf(seen, (Finding.LostUpdate) f);
        }
    }

    @Property(tries = 300, seed = "20270313")
    void afterEviction_exactlyTheKeysRetainedTransactionsTouched_keepATrace(
            @ForAll(supplier = GeneratorArbitraries.Any.class) GeneratorOptions generator,
            @ForAll @IntRange(min = 1, max = 4) int evictions,
            @ForAll long evictionSeed) {
        List<Op> history = ListAppendGenerator.generate(generator.toBuilder()
                .txnCount(Math.max(40, generator.txnCount())).build());
        SplittableRandom random = new SplittableRandom(evictionSeed);
        InferenceRun run = new InferenceRun();
        Set<Integer> at = evictionPoints(history.size(), evictions, random);
        for (int i = 0; i <= history.size(); i++) {
            if (at.contains(i)) {
                int before = run.inference().keyCount();
                run.evictBelow(random.nextInt(run.size() + 1));
                assertEquals(run.liveKeys().size(), run.inference().keyCount(), "live keys after eviction");
                assertTrue(run.inference().keyCount() <= before);
            }
            if (i < history.size()) {
                run.accept(history.get(i));
            }
        }
        run.evictBelow(run.size());
        assertEquals(0, run.inference().keyCount(), "evicting every transaction leaves no key");
        assertEquals(List.of(), run.inference().lostUpdates());
    }

    // ---- runs ----

    static InferenceRun runWhole(List<Op> history) {
        InferenceRun run = new InferenceRun();
        history.forEach(run::accept);
        run.settle();
        return run;
    }

    /** Evicts below a random cut at random moments (at least once, perhaps just before settling). */
    static InferenceRun runEvicting(List<Op> history, int evictions, SplittableRandom random) {
        InferenceRun run = new InferenceRun();
        Set<Integer> at = evictionPoints(history.size(), evictions, random);
        for (int i = 0; i <= history.size(); i++) {
            if (at.contains(i)) {
                run.evictBelow(random.nextInt(run.size() + 1));
                run.decodeEveryRead();
            }
            if (i < history.size()) {
                run.accept(history.get(i));
            }
        }
        run.settle();
        run.decodeEveryRead();
        return run;
    }

    private static Set<Integer> evictionPoints(int events, int count, SplittableRandom random) {
        Set<Integer> at = new HashSet<>();
        for (int i = 0; i < count; i++) {
            at.add(random.nextInt(events + 1));
        }
        return at;
    }

    // ---- comparisons ----

    /**
     * Every edge of {@code part} is one {@code reference} infers, or one a key in {@code excused}
     * could explain (both transactions touch it as the edge's kind needs).
     */
    private static void assertEdgesOf(InferenceRun reference, InferenceRun part, Set<Long> excused,
                                      Map<Long, List<MicroOp>> ops) {
        Set<InferenceRun.Edge> extra = new LinkedHashSet<>(part.edges());
        extra.removeAll(reference.edges());
        extra.removeIf(e -> excused.stream().anyMatch(key -> explains(key, e, ops)));
        assertEquals(Set.of(), extra, "edges after eviction that the run without evicting does not infer");
    }

    private static boolean explains(long key, InferenceRun.Edge e, Map<Long, List<MicroOp>> ops) {
        boolean fromAppends = touches(ops.get(e.from()), key, true);
        boolean toAppends = touches(ops.get(e.to()), key, true);
        return switch (e.kind()) {
            case WW -> fromAppends && toAppends;
            case WR -> fromAppends && touches(ops.get(e.to()), key, false);
            case RW -> touches(ops.get(e.from()), key, false) && toAppends;
            default -> false;
        };
    }

    private static boolean touches(List<MicroOp> mops, long key, boolean append) {
        return mops.stream().anyMatch(m -> m.key() == key && (append ? m instanceof MicroOp.Append : m instanceof MicroOp.Read));
    }

    /** Each transaction's completed micro-ops, by the history index of its invocation. */
    private static Map<Long, List<MicroOp>> completedMicroOps(List<Op> history) {
        Map<Long, Long> openInvoke = new HashMap<>();
        Map<Long, List<MicroOp>> out = new HashMap<>();
        for (Op op : history) {
            if (op.type() == OpType.INVOKE) {
                openInvoke.put(op.process(), op.index());
            } else {
                out.put(openInvoke.remove(op.process()), op.value());
            }
        }
        return out;
    }

    private static Set<Long> incompatibleKeys(InferenceRun run) {
        return run.findings().stream().filter(f -> f instanceof Finding.IncompatibleOrder)
                .map(f -> ((Finding.IncompatibleOrder) f).key()).collect(Collectors.toSet());
    }

    /** The key a finding is about, or null for a transaction's own (internal, future-read). */
    private static Long key(Finding f) {
        if (f instanceof Finding.BadRead b) {
            return b.reader().completion().value().get(b.mopIndex()).key();
        }
        if (f instanceof Finding.DuplicateElements d) {
            return d.txn().completion().value().get(d.mopIndex()).key();
        }
        if (f instanceof Finding.DirtyUpdate d) {
            return d.key();
        }
        if (f instanceof Finding.IncompatibleOrder o) {
            return o.key();
        }
        return null;
    }

    /** A lost update found after eviction: some group of the whole run holds its key, version and members. */
    private static void assertWithinAGroupOf(InferenceRun whole, Finding.LostUpdate lost) {
        Set<Long> members = invokeIndices(lost.txns());
        for (Finding f : whole.inference().lostUpdates()) {
            Finding.LostUpdate group = (Finding.LostUpdate) f;
            if (group.key() == lost.key() && Arrays.equals(group.value(), lost.value())
                    && invokeIndices(group.txns()).containsAll(members)) {
                return;
            }
        }
        fail("lost update of key " + lost.key() + " by " + members + " after eviction is in no group of the whole run: "
                + whole.inference().lostUpdates().stream().map(ListAppendEvictionProperties::signature).toList());
    }

    private static Set<Long> invokeIndices(List<Txn> txns) {
        return txns.stream().map(Txn::invokeIndex).collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * What makes a finding the same in both runs: its type, its transactions (by invocation
     * index) and the values it names. An incompatible order is named by its key alone: a key
     * touched again after its trace was dropped restarts, and may meet the contradiction between
     * other reads than the whole run met first (both are contradictions of the same key).
     */
    static String signature(Finding f) {
        String txns = f.type() + " " + invokeIndices(f.txns());
        if (f instanceof Finding.BadRead b) {
            return txns + " mop " + b.mopIndex() + " element " + b.element()
                    + " writer " + (b.writer() == null ? "-" : b.writer().invokeIndex());
        }
        if (f instanceof Finding.Internal i) {
            return txns + " mop " + i.mopIndex();
        }
        if (f instanceof Finding.DuplicateElements d) {
            return txns + " mop " + d.mopIndex();
        }
        if (f instanceof Finding.IncompatibleOrder o) {
            return txns + " key " + o.key();
        }
        if (f instanceof Finding.DirtyUpdate d) {
            return txns + " key " + d.key() + " " + Arrays.toString(d.values());
        }
        if (f instanceof Finding.LostUpdate l) {
            return txns + " key " + l.key() + " " + Arrays.toString(l.value());
        }
        return txns;
    }

}
