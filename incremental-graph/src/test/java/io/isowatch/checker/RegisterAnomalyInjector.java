package io.isowatch.checker;

import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Splices a known register anomaly into a history: a small pattern of transactions on fresh keys
 * (larger than any the history uses) run by fresh processes, so no data edge joins the pattern to
 * the rest. Within a phase every transaction is invoked before any completes, so no realtime or
 * process edge joins two of them; only the sequential-keys pattern has a second phase, because
 * per-process order needs a process to run two transactions one after the other.
 *
 * <p>Each pattern names the version-order sources it is checked under and the anomaly types Elle
 * reports for it under strict-serializable, worked out in its comment from {@code rw_register.clj}
 * and {@code txn.clj} (and confirmed by {@link RegisterBatchReference}). Every pattern holds a
 * data edge, so it never adds {@code empty-transaction-graph}. A generated correct history keeps
 * its types exactly: its own inferences stay valid whatever the pattern does, even when the
 * pattern's contradiction drops a whole source.
 */
final class RegisterAnomalyInjector {

    /** A transaction of a pattern: its phase, its process slot, its completed micro-ops, its outcome. */
    record Step(int phase, int slot, String mops, OpType outcome) {
    }

    /** The patterns. Keys x, y are fresh; values are unique per key. */
    enum Pattern {
        /**
         * Elle's own G0 case, made concurrent (golden rw-register-G0-sequential-keys): A (w x 1,
         * w y 2) and B (w x 2, w y 1) at once; then A's process reads x = 2, B's reads y = 2.
         * Process order: x 1 -> 2, y 1 -> 2, so ww A -> B and ww B -> A.
         */
        G0_SEQUENTIAL(RegisterHistories.Sources.SEQUENTIAL, Set.of("G0"),
                ok(0, 0, "w:x:1 w:y:2"), ok(0, 1, "w:x:2 w:y:1"), ok(1, 0, "r:x:2"), ok(1, 1, "r:y:2")),
        /**
         * Each reads the other's write, then overwrites it. Writes-follow-reads gives x 1 -> 2 and
         * y 1 -> 2, so ww both ways; but every ww a writes-follow-reads edge makes comes with the
         * wr of the read behind it, and Elle's rw-register explainer tries wr first: the ww cycle
         * its G0 search meets is explained wr, wr and filed as G1c. G1c does not rule out
         * read-uncommitted, so the PL-1-cycle-exists fallback (a ww-only cycle exists) stays.
         * Elle never reports a G0 that writes-follow-reads alone proves.
         */
        G0_WFR(RegisterHistories.Sources.WFR, Set.of("G1c", "PL-1-cycle-exists"),
                ok("w:x:1 r:y:1 w:y:2"), ok("r:x:1 w:x:2 w:y:1")),
        /** An ok read of a failed write; the read of y gives the graph its edge. */
        G1A(RegisterHistories.Sources.NONE, Set.of("G1a"), fail("w:x:1"), ok("w:y:1"), ok("r:x:1 r:y:1")),
        /** Reads the writer's first of two writes of x: G1b, and no wr (1 is no external write). */
        G1B(RegisterHistories.Sources.NONE, Set.of("G1b"), ok("w:x:1 w:x:2 w:y:1"), ok("r:x:1 r:y:1")),
        /** Each reads the other's write: wr both ways. */
        G1C(RegisterHistories.Sources.NONE, Set.of("G1c"), ok("w:x:1 r:y:1"), ok("w:y:1 r:x:1")),
        /** Read skew: sees the writer's x, but y as nil, which precedes the writer's y (wr + rw). */
        G_SINGLE_ITEM(RegisterHistories.Sources.NONE, Set.of("G-single-item"), ok("w:x:1 w:y:1"), ok("r:x:1 r:y:")),
        /** Long fork: wr rw wr rw, no two rw adjacent. */
        G_NONADJACENT_ITEM(RegisterHistories.Sources.NONE, Set.of("G-nonadjacent-item"), ok("w:x:1"), ok("w:y:1"),
                ok("r:x:1 r:y:"), ok("r:y:1 r:x:")),
        /** Write skew: each reads nil from the key the other writes (rw both ways, adjacent). */
        G2_ITEM(RegisterHistories.Sources.NONE, Set.of("G2-item"), ok("r:x: w:y:1"), ok("r:y: w:x:1")),
        /** Writes x = 2, then reads 1: misses its own write. The read of y gives the edge. */
        INTERNAL(RegisterHistories.Sources.NONE, Set.of("internal"), ok("w:x:1 w:y:1"), ok("r:y:1 w:x:2 r:x:1")),
        /**
         * Both read x = 1 and then write x. Without assumed sources nothing orders 1 before 2 or
         * 3, so no rw edge: lost-update alone (with writes-follow-reads it is also G2-item).
         */
        LOST_UPDATE(RegisterHistories.Sources.NONE, Set.of("lost-update"), ok("w:x:1"), ok("r:x:1 w:x:2"),
                ok("r:x:1 w:x:3")),
        /** Reads 99, which nobody wrote; the read of y gives the edge. isowatch's own finding. */
        GARBAGE_READ(RegisterHistories.Sources.NONE, Set.of("garbage-read"), ok("w:x:1 w:y:1"), ok("r:x:99 r:y:1")),
        /**
         * Golden rw-register-cyclic-versions-wfr-keys: one reads 1 and writes 2, the other reads 2
         * and writes 1. Writes-follow-reads says 1 -> 2 and 2 -> 1: cyclic-versions, and the
         * source is dropped; the wr edges both ways are G1c.
         */
        CYCLIC_VERSIONS(RegisterHistories.Sources.WFR, Set.of("cyclic-versions", "G1c"), ok("r:x:1 w:x:2"),
                ok("r:x:2 w:x:1"));

        final RegisterHistories.Sources sources;
        final Set<String> expected;
        final List<Step> steps;

        Pattern(RegisterHistories.Sources sources, Set<String> expected, Step... steps) {
            this.sources = sources;
            this.expected = expected;
            this.steps = List.of(steps);
        }

        int phases() {
            return steps.stream().mapToInt(Step::phase).max().orElse(0) + 1;
        }
    }

    private static Step ok(String mops) {
        return new Step(0, -1, mops, OpType.OK);
    }

    private static Step ok(int phase, int slot, String mops) {
        return new Step(phase, slot, mops, OpType.OK);
    }

    private static Step fail(String mops) {
        return new Step(0, -1, mops, OpType.FAIL);
    }

    private RegisterAnomalyInjector() {
    }

    /** The process of step i: its slot, or for slot -1 its own position. */
    private static long process(Pattern p, int i, long firstProcess) {
        Step s = p.steps.get(i);
        return firstProcess + (s.slot() >= 0 ? s.slot() : i);
    }

    /**
     * The pattern's events, phase by phase: every invocation of the phase, then every completion;
     * with a random source both groups are shuffled. Keys x, y are {@code firstKey},
     * {@code firstKey + 1}. Indices and times are placeholders.
     */
    static List<Op> events(Pattern p, long firstKey, long firstProcess, SplittableRandom random) {
        List<Op> out = new ArrayList<>();
        for (int phase = 0; phase < p.phases(); phase++) {
            List<Integer> members = new ArrayList<>();
            for (int i = 0; i < p.steps.size(); i++) {
                if (p.steps.get(i).phase() == phase) {
                    members.add(i);
                }
            }
            for (int i : PatternSplicing.shuffled(members, random)) {
                List<MicroOp> done = RegisterHistories.mops(p.steps.get(i).mops(), firstKey);
                out.add(new Op(0, 0, OpType.INVOKE, process(p, i, firstProcess), CheckerHistories.invocation(done)));
            }
            for (int i : PatternSplicing.shuffled(members, random)) {
                Step s = p.steps.get(i);
                List<MicroOp> done = RegisterHistories.mops(s.mops(), firstKey);
                List<MicroOp> value = s.outcome() == OpType.OK ? done : CheckerHistories.invocation(done);
                out.add(new Op(0, 0, s.outcome(), process(p, i, firstProcess), value));
            }
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
