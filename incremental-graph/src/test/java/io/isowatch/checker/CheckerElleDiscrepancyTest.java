package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.Finding;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Minimal histories on which {@link IncrementalChecker} departed from Elle, found by
 * {@link CheckerProperties}. Each test states Elle's verdict, derived from Elle's source (named in
 * its comment) and confirmed by {@link BatchReference} before the checker is asked. Each is also a
 * golden history of the same shape in {@code src/test/resources/histories/}.
 *
 * <p>Tests marked KNOWN BUG fail until the checker is fixed; the matching {@link BatchDeviation}
 * lets the mutated-history property tolerate the departure meanwhile, and goes with the fix.
 */
class CheckerElleDiscrepancyTest {

    /**
     * Fixed (af400bc). Elle's {@code elle.core/realtime-graph} links every ok in its buffer to
     * the completion of each later invocation "regardless of whether this op will fail", so
     * T1 -> T2 (fail) is a realtime edge, the graph is not empty, and Elle answers
     * {@code {:valid? true}} rather than reporting {@code empty-transaction-graph}.
     */
    @Test
    void realtimeEdgeToFailedTxn_makesTheGraphNonEmpty() {
        List<Op> h = CheckerHistories.history()
                .txn(0, "a:0:1")
                .invoke(0, "a:1:2").fail(0)
                .build();
        assertElle(h, Validity.TRUE, Set.of());
    }

    /**
     * Fixed (3ca9dcf). T1 reads x = [1]; only afterwards does T2 (append 1, append 2 to x) begin.
     * Elle's {@code g1b-cases} looks at the whole history: 1 is T2's intermediate append, so G1b.
     * Edges: wr T2 -> T1, and 2 (unread) goes after 1, so rw T1 -> T2: G-single-item (the
     * realtime edge T1 -> T2 is explained as rw). The cycle-exists fallback strong-PL-2 (realtime
     * T1 -> T2, wr T2 -> T1) is dropped because G1b rules out read committed. Elle: G-single-item,
     * G1b. The checker tested a read for G1b only against writers already invoked, so missed it
     * and kept the fallback.
     */
    @Test
    void intermediateRead_ofWriterInvokedAfterTheRead_isG1b() {
        List<Op> h = CheckerHistories.history()
                .txn(0, "r:0:1")
                .txn(1, "a:0:1 a:0:2")
                .build();
        assertElle(h, Validity.FALSE, Set.of("G-single-item", "G1b"));
    }

    /**
     * Fixed (the checker now re-classifies such cycles at the end). A (append x 1, read x [1],
     * read y [1]), B (append y 1, append x 2) and C (read x [1 2]) run concurrently and complete
     * A, B, C. Edges: wr B -> A (y); A read [1] and B's 2 follows 1, so rw A -> B and ww A -> B.
     * Elle explains the pair A -> B by its first kind, ww: one cycle, ww + wr, G1c and nothing
     * else ({@code txn/cycle-explainer}; the G-single search rejects a cycle explained as G1c).
     * When C's read reveals 2, the checker added rw A -> B before ww A -> B, found a G-single-item
     * in between, and kept it.
     */
    @Test
    void cycleType_foundBeforeAnEarlierKindJoinsThePair_isNotReported() {
        List<Op> h = CheckerHistories.history()
                .invoke(0, "a:0:1 r:0 r:1").invoke(1, "a:1:1 a:0:2").invoke(2, "r:0")
                .ok(0, "a:0:1 r:0:1 r:1:1").ok(1, "a:1:1 a:0:2").ok(2, "r:0:1,2")
                .build();
        assertElle(h, Validity.FALSE, Set.of("G1c"));
    }

    /**
     * Fixed (32b0d21). A (reads x = [2]), B (reads x = []) and C (appends 1 and 2 to x) run one after
     * another. Version order [2]: rw B -> C (B read the initial state), rw A -> C (1, unread,
     * goes after 2), wr C -> A; realtime A -> B -> C. G-single-item: A -rw-> C -wr-> A. Elle's
     * G1c-realtime search ({@code elle.bfs}, edges as sets of kinds) may walk B -> C as realtime:
     * A -rt-> B -rt-> C -wr-> A; explained pair by pair that is rt, rw, wr, so Elle files it as a
     * G-single-item-realtime (G1c-realtime specs have no {@code :type} check). The checker's
     * searches stepped only along the kind explaining each pair (rw for B -> C), so it missed it.
     */
    @Test
    void searchWalksAnyKindOfAPair_realtimeOverAnRwPair() {
        List<Op> h = CheckerHistories.history()
                .txn(0, "r:0:2").txn(0, "r:0:").txn(0, "a:0:1 a:0:2")
                .build();
        assertElle(h, Validity.FALSE, Set.of("G-single-item", "G-single-item-realtime", "strong-PL-2-cycle-exists"));
    }

    /**
     * Fixed (32b0d21), the same departure seen from the other side. T1 reads x empty twice and appends
     * 1; then T2 (append 2 to x, read x [2], read y [1]) and T3 (append 1 to y, read y [1]) run
     * concurrently, T3 completing first. Edges: rw T1 -> T2 and realtime T1 -> T2 (one pair),
     * ww T2 -> T1 (1, unread, after 2), realtime T1 -> T3, wr T3 -> T2. Elle's G0-realtime search
     * walks T1 -> T2 as realtime and meets T1 -> T2 -> T1, explained rw + ww: a G-single-item; having
     * found something, it makes the types G0-realtime implies redundant, G1c-realtime among them.
     * The checker could not walk that pair as realtime, so it went on to report the G1c-realtime
     * T1 -rt-> T3 -wr-> T2 -ww-> T1, which Elle never searches for.
     */
    @Test
    void searchWalksAnyKindOfAPair_findingMakesImpliedTypesRedundant() {
        List<Op> h = CheckerHistories.history()
                .txn(1, "r:0: r:0: a:0:1")
                .invoke(0, "a:0:2 r:0 r:1").invoke(2, "a:1:1 r:1")
                .ok(2, "a:1:1 r:1:1").ok(0, "a:0:2 r:0:2 r:1:1")
                .build();
        assertElle(h, Validity.FALSE, Set.of("G-single-item", "strong-PL-1-cycle-exists"));
    }

    /**
     * Fixed (the checker now counts reads as Elle does). Elle's {@code lost-update-cases} records,
     * per key, a txn's first read and the first append after it, even when an append came before
     * the read: T1 (append 2, read [1 2], append 3) and T2 (read [1 2], append 4) both read [1 2]
     * and then wrote, so lost-update. T2 also reads T1's intermediate 2 (G1b, and wr + rw make a
     * G-single-item). The checker counted a read only when it was the txn's first micro-op on the
     * key.
     */
    @Test
    void lostUpdate_readAfterOwnAppend_countsAsElleDoes() {
        List<Op> h = CheckerHistories.history()
                .txn(0, "a:0:1")
                .invoke(1, "a:0:2 r:0 a:0:3").invoke(2, "r:0 a:0:4")
                .ok(1, "a:0:2 r:0:1,2 a:0:3").ok(2, "r:0:1,2 a:0:4")
                .build();
        assertElle(h, Validity.FALSE, Set.of("G-single-item", "G1b", "lost-update"));
    }

    /**
     * Fixed (3ca9dcf). Reads [1 2] and [1 3] of x are incompatible, and 3's writer failed. Elle's
     * {@code g1a-cases} does not depend on the version order: the ok read of 3 is G1a. No cycle
     * whichever read Elle takes as the order (all concurrent). The checker checked for aborted
     * reads only elements of its partial order, which stopped at the first contradiction.
     */
    @Test
    void abortedRead_inAReadIncompatibleWithTheOrder_isG1a() {
        List<Op> h = CheckerHistories.history()
                .invoke(0, "a:0:1").invoke(1, "a:0:2").invoke(2, "a:0:3").invoke(3, "r:0").invoke(4, "r:0")
                .ok(0, "a:0:1").ok(1, "a:0:2").fail(2).ok(3, "r:0:1,2").ok(4, "r:0:1,3")
                .build();
        assertElle(h, Validity.FALSE, Set.of("G1a", "incompatible-order"));
    }

    /**
     * Fixed (3ca9dcf); it was a stack trace instead of a verdict. T1, T2 append 1, 2 to x; T3 reads [1]; T4
     * reads [2 1] and then [1 2]; all concurrent, completing in that order. The checker's order
     * for x stops at [1] when [2 1] contradicts it, yet stored T4's [1 2] as a prefix of that
     * order (length 2 of 1), and explaining the cycle through T4 threw
     * IndexOutOfBoundsException ("prefix of 2 from LongList of size 1"). Elle: incompatible-order;
     * internal (T4's second read disagrees with its first); and G-single-item whichever read of
     * length 2 Elle takes as the order (with [1 2]: rw T4 -> T2, wr T2 -> T4; with [2 1]:
     * rw T4 -> T1, wr T1 -> T4).
     */
    @Test
    void longerReadAgreeingWithABrokenOrder_doesNotCrash() {
        List<Op> h = CheckerHistories.history()
                .invoke(0, "a:0:1").invoke(1, "a:0:2").invoke(2, "r:0").invoke(3, "r:0 r:0")
                .ok(0, "a:0:1").ok(1, "a:0:2").ok(2, "r:0:1").ok(3, "r:0:2,1 r:0:1,2")
                .build();
        assertElle(h, Validity.FALSE, Set.of("G-single-item", "incompatible-order", "internal"));
    }

    /**
     * Fixed (the checker now walks a key's longest failed read when the key settles). T1 appends
     * 1 and commits; T2 reads x = [1]; T3 appends 2 and fails; T4 appends 3 and commits; T5 reads
     * x = [1 2 3] and fails. Elle's {@code dirty-update-cases} walks the longest read of any
     * client op ({@code sorted-values} over {@code h/client-ops}, list_append.clj 955-958), here
     * T5's: 2 (failed) then 3 (committed), a dirty update. Nothing else: G1a looks at ok reads
     * only, and the graph (ww T1 -> T4, wr T1 -> T2, rw T2 -> T4, realtime) has no cycle. The
     * checker walked only the order of ok and info reads, [1].
     */
    @Test
    void dirtyUpdate_seenOnlyByAFailedRead_isReported() {
        assertElle(abortedThenCommittedAppend_readBy("r:0:1,2,3"), Validity.FALSE, Set.of("dirty-update"));
    }

    /**
     * Fixed (as above), the same with T5's read [2 3 1] contradicting the ok read [1]: Elle's
     * pass still walks the longest read, from its start (failed reads take no part in
     * incompatible-order): 2 (failed), 3 (committed), a dirty update.
     */
    @Test
    void dirtyUpdate_seenOnlyByAFailedReadContradictingTheOrder_isReported() {
        assertElle(abortedThenCommittedAppend_readBy("r:0:2,3,1"), Validity.FALSE, Set.of("dirty-update"));
    }

    /**
     * Fixed (01e8ab5). T1 appends 1 to x and fails; T2 appends 2 and commits; T3 reads x = [1 2]
     * and commits (G1a: it read T1's aborted 1); T4 appends 3 and fails; T5 reads x = [2 1 3] and
     * fails. Walking the order of ok reads, [1 2], 1 (failed) then 2 (committed) is a dirty update,
     * and the checker streams it. But Elle's pass walks the longest read of any client op, T5's: 2
     * (committed), 1 (failed), 3 (failed), no dirty update (list_append.clj 434-484, 955-958). So
     * Elle's verdict is G1a alone, and the checker's verdict leaves the streamed case out.
     */
    @Test
    void dirtyUpdate_ofAnOrderALongerFailedReadContradicts_isLeftOutOfTheVerdict() {
        List<Op> h = CheckerHistories.history()
                .invoke(0, "a:0:1").fail(0).txn(1, "a:0:2").txn(2, "r:0:1,2")
                .invoke(3, "a:0:3").fail(3)
                .invoke(4, "r:0").failWith(4, "r:0:2,1,3")
                .build();
        assertElle(h, Validity.FALSE, Set.of("G1a"));
        List<Finding> streamed = new ArrayList<>();
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable(), streamed::add);
        h.forEach(checker::accept);
        checker.finish();
        assertTrue(streamed.stream().anyMatch(f -> f.type() == AnomalyType.DIRTY_UPDATE),
                "the walk of the order streams its dirty update: " + streamed);
    }

    /**
     * As the case above, but T4 appends 3 and T6 appends 4, failing and committing, and the failed
     * T5 reads x = [2 3 1 4]. Elle walks T5's read: 2 (committed), 3 and 1 (failed), 4
     * (committed): one dirty update, [3 1 4]. The walk of the order [1 2] streamed another, [1 2],
     * which the verdict leaves out, while the fresh walk's, streamed after it, stays.
     */
    @Test
    void dirtyUpdate_ofTheFreshWalk_staysInTheVerdict_withoutTheOrders() {
        List<Op> h = CheckerHistories.history()
                .invoke(0, "a:0:1").fail(0).txn(1, "a:0:2").txn(2, "r:0:1,2")
                .invoke(3, "a:0:3").fail(3).txn(5, "a:0:4")
                .invoke(4, "r:0").failWith(4, "r:0:2,3,1,4")
                .build();
        assertElle(h, Validity.FALSE, Set.of("G1a", "dirty-update"));
        List<Finding> streamed = new ArrayList<>();
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable(), streamed::add);
        h.forEach(checker::accept);
        Verdict v = checker.finish();
        assertEquals(List.of("[1, 2]", "[3, 1, 4]"), dirtyUpdateValues(streamed), "streamed");
        assertEquals(List.of("[3, 1, 4]"), dirtyUpdateValues(v.anomalies().get(AnomalyType.DIRTY_UPDATE)), "verdict");
    }

    private static List<String> dirtyUpdateValues(List<Finding> findings) {
        return findings.stream().filter(f -> f instanceof Finding.DirtyUpdate)
                .map(f -> java.util.Arrays.toString(((Finding.DirtyUpdate) f).values())).toList();
    }

    /**
     * Fixed (01e8ab5). T1 appends 1 to x and fails; T2 appends 2 and commits; T3 reads x = [1 2];
     * T4 appends 3 and fails; T5 reads x = [2 1 3] and commits. The two ok reads disagree
     * (incompatible-order); both read T1's aborted 1, and T5 T4's aborted 3 too (G1a). Elle walks
     * the longest read, T5's: 2 (committed), 1, 3 (failed): no dirty update. The checker's order
     * stopped at [1 2], whose walk streams one; Elle's verdict, and now the checker's, lack it.
     */
    @Test
    void dirtyUpdate_ofABrokenKeysOrder_followsItsLongestRead() {
        List<Op> h = CheckerHistories.history()
                .invoke(0, "a:0:1").fail(0).txn(1, "a:0:2").txn(2, "r:0:1,2")
                .invoke(3, "a:0:3").fail(3).txn(4, "r:0:2,1,3")
                .build();
        assertElle(h, Validity.FALSE, Set.of("G1a", "incompatible-order"));
    }

    /**
     * Fixed (01e8ab5). T1 and T2 append 1 and 2 to x and commit; T3 reads [1 2] and T4 [2], both
     * commit (incompatible-order); T5 appends 3 and fails; T6 appends 4 and commits; T7 reads x =
     * [1 2 3 4] and fails. Elle walks T7's read, the longest: 3 (failed) then 4 (committed), a
     * dirty update. The checker used to walk no failed read on a key whose reads disagree; now the
     * order [1 2] is a prefix of T7's read, and the walk goes on along it.
     */
    @Test
    void dirtyUpdate_seenOnlyByAFailedRead_ofABrokenKey_isReported() {
        List<Op> h = CheckerHistories.history()
                .txn(0, "a:0:1").txn(1, "a:0:2").txn(2, "r:0:1,2").txn(3, "r:0:2")
                .invoke(4, "a:0:3").fail(4).txn(5, "a:0:4")
                .invoke(6, "r:0").failWith(6, "r:0:1,2,3,4")
                .build();
        assertElle(h, Validity.FALSE, Set.of("dirty-update", "incompatible-order"));
    }

    /** T1 appends 1 to x and commits, T2 reads [1], T3 appends 2 and fails, T4 appends 3, T5 reads and fails. */
    private static List<Op> abortedThenCommittedAppend_readBy(String failedRead) {
        return CheckerHistories.history()
                .txn(0, "a:0:1").txn(3, "r:0:1")
                .invoke(1, "a:0:2").fail(1).txn(2, "a:0:3")
                .invoke(4, "r:0").failWith(4, failedRead)
                .build();
    }

    private static void assertElle(List<Op> h, Validity valid, Set<String> types) {
        BatchReference.Result r = BatchReference.check(h, Set.copyOf(ConsistencyModel.names(CheckerOptions.DEFAULT_MODELS)), Set.of());
        assertEquals(new TreeSet<>(types), r.types(), "reference");
        assertEquals(valid, r.valid(), "reference");
        assertEquals(new TreeSet<>(types), r.types(), "reference");
        Verdict v = CheckerHistories.check(h, CheckerOptions.defaults());
        String history = CheckerHistories.jsonLines(h);
        assertEquals(new TreeSet<>(types), CheckerHistories.typeNames(v), "checker\n" + history);
        assertEquals(valid, v.valid(), "checker\n" + history);
    }
}
