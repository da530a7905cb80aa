package io.isowatch.checker;

import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Splices a known anomaly into a history: a small pattern of transactions on fresh keys (larger
 * than any the history uses) run by fresh processes, all invoked before any completes, so no
 * realtime or process edge joins two of them and no data edge joins them to the rest. The
 * pattern's anomalies are then exactly the ones the whole history has, and {@link Pattern#expected}
 * says which Elle reports under strict-serializable.
 *
 * <p>Every pattern holds at least one data edge, so it never adds {@code empty-transaction-graph}.
 * Each expected set is worked out in the pattern's comment from Elle's rules; the golden
 * histories of the same name walk through the same shapes edge by edge.
 */
final class AnomalyInjector {

    /**
     * A transaction of a pattern: its completed micro-ops (notation of {@link CheckerHistories})
     * and outcome. A failed one completes with its invocation's value (reads unknown) unless
     * {@code readsKept}: then its completion holds what it read, as Jepsen records an aborted
     * transaction's reads.
     */
    record Step(String mops, OpType outcome, boolean readsKept) {
    }

    /** The patterns. Keys x, y are fresh; elements are unique per key. */
    enum Pattern {
        /** ww x 1->2, ww y 2->1: a two-ww cycle. */
        G0(Set.of("G0"), ok("a:x:1 a:y:1"), ok("a:x:2 a:y:2"), ok("r:x:1,2 r:y:2,1")),
        /** An ok read of a failed append; the read of y gives the graph its edge. */
        G1A(Set.of("G1a"), fail("a:x:1"), ok("a:y:1"), ok("r:x:1 r:y:1")),
        /** Reads the writer's first of two appends: G1b, and wr + rw make a G-single-item. */
        G1B(Set.of("G1b", "G-single-item"), ok("a:x:1 a:x:2"), ok("r:x:1")),
        /** Each reads the other's append: wr both ways. */
        G1C(Set.of("G1c"), ok("a:x:1 r:y:1"), ok("a:y:1 r:x:1")),
        /** Read skew: sees the writer's x but not its y (wr + rw). */
        G_SINGLE_ITEM(Set.of("G-single-item"), ok("a:x:1 a:y:1"), ok("r:x:1 r:y:")),
        /** Long fork: wr rw wr rw, no two rw adjacent. */
        G_NONADJACENT_ITEM(Set.of("G-nonadjacent-item"), ok("a:x:1"), ok("a:y:1"), ok("r:x:1 r:y:"),
                ok("r:y:1 r:x:")),
        /** Write skew: each reads the other's key empty, then appends to its own (rw both ways). */
        G2_ITEM(Set.of("G2-item"), ok("r:x: a:y:1"), ok("r:y: a:x:2")),
        /** Appends 2, then reads [1]: misses its own append. Edges: wr and ww 1->2. */
        INTERNAL(Set.of("internal"), ok("a:x:1"), ok("a:x:2 r:x:1")),
        /** Reads [1] on x, then appends 1 to x itself; the read of y gives the edge. */
        FUTURE_READ(Set.of("future-read"), ok("a:y:1"), ok("r:y:1 r:x:1 a:x:1")),
        /** Reads [1 1 2]. Edges ww 1->2 (distinct order), wr. */
        DUPLICATE_ELEMENTS(Set.of("duplicate-elements"), ok("a:x:1"), ok("a:x:2"), ok("r:x:1,1,2")),
        /** Reads [1 2] and [1 3]; acyclic whichever read is taken as the order. */
        INCOMPATIBLE_ORDER(Set.of("incompatible-order"), ok("a:x:1"), ok("a:x:2"), ok("a:x:3"), ok("r:x:1,2"),
                ok("r:x:1,3")),
        /** Both read [1] and append, never read again: lost-update, and rw both ways is G2-item. */
        LOST_UPDATE(Set.of("lost-update", "G2-item"), ok("a:x:1"), ok("r:x:1 a:x:2"), ok("r:x:1 a:x:3")),
        /** Reads 99, which nobody appended; the read of y gives the edge. */
        GARBAGE_READ(Set.of("garbage-read"), ok("a:x:1 a:y:1"), ok("r:x:1,99 r:y:1")),
        /** Failed append 1, ok append 2, read [1 2]: dirty update, and the read of 1 is G1a. */
        DIRTY_UPDATE(Set.of("dirty-update", "G1a"), fail("a:x:1"), ok("a:x:2"), ok("r:x:1,2")),
        /**
         * The same seen only by a failed read of [1 2]: Elle's dirty-update pass walks the
         * longest read of any client op; nothing else looks at it, so no G1a. The reads of y
         * give the edge.
         */
        DIRTY_UPDATE_IN_A_FAILED_READ(Set.of("dirty-update"), fail("a:x:1"), ok("a:x:2 a:y:1"),
                failedReading("r:x:1,2"), ok("r:y:1")),
        /**
         * DIRTY_UPDATE's [1 2], but a failed read of [2 1 3], 3 failed too, is the longest read,
         * and Elle's dirty-update pass walks only it: 2 committed, then 1 and 3 aborted, no case.
         * The ok read of 1 is G1a; its wr edge from 2's writer is the graph's.
         */
        DIRTY_UPDATE_ONLY_IN_AN_ORDER_A_FAILED_READ_CONTRADICTS(Set.of("G1a"), fail("a:x:1"), ok("a:x:2"),
                ok("r:x:1,2"), fail("a:x:3"), failedReading("r:x:2,1,3"));

        final Set<String> expected;
        final List<Step> steps;

        Pattern(Set<String> expected, Step... steps) {
            this.expected = expected;
            this.steps = List.of(steps);
        }
    }

    private static Step ok(String mops) {
        return new Step(mops, OpType.OK, true);
    }

    private static Step fail(String mops) {
        return new Step(mops, OpType.FAIL, false);
    }

    private static Step failedReading(String mops) {
        return new Step(mops, OpType.FAIL, true);
    }

    private AnomalyInjector() {
    }

    /**
     * The pattern's events: every invocation, then every completion; with a random source both
     * groups are shuffled. Keys x, y are {@code firstKey}, {@code firstKey + 1}; the i-th
     * transaction runs on process {@code firstProcess + i}. Indices and times are placeholders.
     */
    static List<Op> events(Pattern p, long firstKey, long firstProcess, SplittableRandom random) {
        int n = p.steps.size();
        List<Integer> all = IntStream.range(0, n).boxed().toList();
        List<Integer> invokeOrder = PatternSplicing.shuffled(all, random);
        List<Integer> completeOrder = PatternSplicing.shuffled(all, random);
        List<Op> out = new ArrayList<>(2 * n);
        for (int i : invokeOrder) {
            List<MicroOp> done = CheckerHistories.mops(p.steps.get(i).mops(), firstKey);
            out.add(new Op(0, 0, OpType.INVOKE, firstProcess + i, CheckerHistories.invocation(done)));
        }
        for (int i : completeOrder) {
            Step s = p.steps.get(i);
            List<MicroOp> done = CheckerHistories.mops(s.mops(), firstKey);
            List<MicroOp> value = s.readsKept() ? done : CheckerHistories.invocation(done);
            out.add(new Op(0, 0, s.outcome(), firstProcess + i, value));
        }
        return out;
    }

    /** The pattern alone, in its written order, re-indexed. */
    static List<Op> alone(Pattern p) {
        return CheckerHistories.reindex(events(p, 0, 0, null));
    }

    /**
     * Splices the pattern into {@code history} at random positions (keeping both orders), on
     * keys and processes larger than any the history uses; re-indexes densely with increasing
     * times.
     */
    static List<Op> inject(List<Op> history, Pattern p, SplittableRandom random) {
        List<Op> pattern = events(p, CheckerHistories.maxKey(history) + 1,
                CheckerHistories.maxProcess(history) + 1, random);
        return PatternSplicing.splice(history, pattern, random);
    }
}
