package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.Op;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static io.isowatch.checker.CheckerHistories.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cases of {@link ListAppendInference#evictBelow} one at a time: what waits across a cut,
 * what a forgotten transaction leaves behind, and what goes. Key x is atom 0; edges are named by
 * the history index of their transactions' invocations.
 */
class ListAppendEvictionTest {

    private final InferenceRun run = new InferenceRun();

    private void feed(List<Op> ops) {
        ops.forEach(run::accept);
    }

    private static InferenceRun.Edge edge(long from, long to, EdgeKind kind) {
        return new InferenceRun.Edge(from, to, kind);
    }

    @Test
    void readerWaitingForAForgottenPendingWriter_getsNoEdgeAndNoFinding() {
        List<Op> h = history()
                .invoke(1, "a:x:1")       // 0: the writer, pending at the cut
                .txn(2, "r:x:1")          // 1, 2: reads 1 before its writer completes
                .ok(1, "a:x:1")           // 3: skipped: its transaction is forgotten
                .build();
        feed(h.subList(0, 3));
        run.evictBelow(1);
        feed(h.subList(3, 4));
        run.settle();

        assertEquals(Set.of(h.get(3).index()), run.skipped());
        assertEquals(Set.of(), run.edges(), "the wr edge needed the forgotten writer");
        assertEquals(List.of(), run.findings());
        assertEquals(0, run.unverifiable(), "1 was appended, by a forgotten transaction: not even a possible garbage read");
    }

    @Test
    void retainedReaderWaitingForARetainedPendingWriter_getsItsEdgeWithTheNewIds() {
        List<Op> h = history()
                .txn(3, "r:y:")           // 0, 1: forgotten
                .invoke(1, "a:x:1")       // 2: the writer, pending across the cut
                .txn(2, "r:x:1")          // 3, 4: waits for it
                .ok(1, "a:x:1")           // 5
                .build();
        feed(h.subList(0, 5));
        run.evictBelow(1);
        feed(h.subList(5, 6));

        assertEquals(Set.of(edge(2, 3, EdgeKind.WR)), run.edges());
    }

    /**
     * The readers of the order's last element anti-depend on whoever appends next. Two readers
     * are forgotten, the third retained: only the retained one's rw edge comes, from its new id.
     * A frontier left as it was would name the writer and the revealing reader instead.
     */
    @Test
    void frontierReaders_areRenumbered_andForgottenOnesDropped() {
        List<Op> h = history()
                .txn(1, "r:x:")           // 0, 1: reads the empty list; forgotten
                .txn(2, "r:x:")           // 2, 3: forgotten too
                .txn(3, "r:x:")           // 4, 5: retained
                .txn(1, "a:x:1")          // 6, 7
                .txn(2, "r:x:1")          // 8, 9: reveals 1
                .build();
        feed(h.subList(0, 6));
        run.evictBelow(2);
        feed(h.subList(6, 10));

        assertEquals(Set.of(edge(4, 6, EdgeKind.RW), edge(6, 8, EdgeKind.WR)), run.edges());
    }

    @Test
    void appendingAForgottenTransactionsElementAgain_isADuplicateAppend() {
        List<Op> h = history()
                .txn(1, "a:x:1")
                .txn(2, "r:x:1")
                .invoke(3, "a:x:1")
                .build();
        feed(h.subList(0, 4));
        run.evictBelow(1);

        HistoryViolationException e = assertThrows(HistoryViolationException.class, () -> run.accept(h.get(4)));
        assertTrue(e.getMessage().contains("more than once"), e::getMessage);
    }

    /**
     * A lost-update group that keeps one member after an eviction becomes that member's plain
     * entry; a later reader of the same version makes a new group with it (a true lost update,
     * of two of the whole history's three). A group left with nobody goes from the verdict.
     */
    @Test
    void lostUpdateGroup_keepsItsRetainedMember_andReportsANewGroupWithIt() {
        List<Op> h = history()
                .txn(1, "r:x: a:x:1")     // 0, 1
                .txn(2, "r:x: a:x:2")     // 2, 3: with 0, a lost update
                .txn(3, "r:x: a:x:3")     // 4, 5
                .build();
        feed(h.subList(0, 4));
        run.evictBelow(1);
        feed(h.subList(4, 6));

        List<Set<Long>> reported = run.findings().stream()
                .filter(f -> f.type() == AnomalyType.LOST_UPDATE)
                .map(f -> invokeIndices(f.txns())).toList();
        assertEquals(List.of(Set.of(0L, 2L), Set.of(2L, 4L)), reported);
        assertEquals(List.of(Set.of(2L, 4L)),
                run.inference().lostUpdates().stream().map(f -> invokeIndices(f.txns())).toList());
        run.evictBelow(run.size());
        assertEquals(List.of(), run.inference().lostUpdates());
    }

    /**
     * x's order is [1 2 3]: 1 aborted, 2's writer forgotten while pending (it committed, which
     * ends the run: the whole history has no dirty update here), 3 committed. Walking past 2 as
     * if its outcome were merely unknown would report 1 then 3.
     */
    @Test
    void dirtyUpdateWalk_passingAForgottenWriter_reportsNothingUntilTheNextCommit() {
        List<Op> h = history()
                .invoke(2, "a:x:2")       // 0: forgotten
                .invoke(1, "a:x:1")       // 1
                .invoke(3, "a:x:3")       // 2
                .txn(4, "r:x:1,2,3")      // 3, 4
                .fail(1)                  // 5
                .ok(2, "a:x:2")           // 6: skipped
                .ok(3, "a:x:3")           // 7
                .build();
        feed(h.subList(0, 6));
        run.evictBelow(1);
        feed(h.subList(6, 8));
        run.settle();

        assertEquals(List.of(), ofType(AnomalyType.DIRTY_UPDATE));
    }

    /** The whole history's dirty update names the forgotten aborted writer: it is not reported. */
    @Test
    void dirtyUpdate_whoseAbortedAppendIsForgotten_isNotReported() {
        List<Op> h = history()
                .invoke(1, "a:x:1")       // 0: forgotten
                .invoke(2, "a:x:2")       // 1
                .txn(3, "r:x:1,2")        // 2, 3
                .fail(1)                  // 4
                .ok(2, "a:x:2")           // 5
                .build();
        feed(h.subList(0, 5));
        run.evictBelow(1);
        feed(h.subList(5, 6));
        run.settle();

        assertEquals(List.of(), ofType(AnomalyType.DIRTY_UPDATE));
    }

    private List<Finding> ofType(AnomalyType type) {
        return run.findings().stream().filter(f -> f.type() == type).toList();
    }

    @Test
    void readOfAForgottenWritersElement_keepsDecodingFromTheKeptOrder() {
        List<Op> h = history()
                .txn(1, "a:x:1")
                .txn(1, "a:x:2")
                .txn(2, "r:x:1,2")
                .build();
        feed(h);
        run.evictBelow(2);

        assertEquals(1, run.inference().keyCount());
        assertEquals("[Read[key=0, values=[1, 2]]]", run.txn(0).completion().value().toString(),
                "the reader's read is stored as a prefix of x's order, whose writers are all forgotten");
    }

    @Test
    void keyNoRetainedTransactionTouched_isDropped_andStartsAfreshWhenTouchedAgain() {
        List<Op> h = history()
                .txn(1, "a:x:1")
                .txn(2, "r:x:1 a:y:1")
                .txn(1, "r:y:1")
                .txn(3, "r:x:1")
                .build();
        feed(h.subList(0, 6));
        assertEquals(2, run.inference().keyCount());
        run.evictBelow(2);
        assertEquals(1, run.inference().keyCount(), "x is dropped, y is read by a retained transaction");
        Set<InferenceRun.Edge> before = Set.copyOf(run.edges());
        feed(h.subList(6, 8));
        run.settle();

        assertEquals(2, run.inference().keyCount());
        assertEquals(before, run.edges());
        assertEquals(List.of(), run.findings());
        assertEquals(1, run.unverifiable(), "x = [1] now looks unwritten, as in a checker that saw only the suffix");
    }

    /**
     * Keys retire after a few appends (Elle's workload): evicting all but the last 200
     * transactions every 1,000 events keeps a few dozen traces, where the history makes
     * thousands of keys. Faults and stale reads included, so the traces hold waiters and findings.
     */
    @Test
    void longHistoryWithRetiringKeys_evictedPeriodically_keepsOnlyTheKeysOfTheRetainedTransactions() {
        List<Op> h = ListAppendGenerator.generate(GeneratorOptions.defaults().toBuilder().txnCount(20_000)
                .maxWritesPerKey(4).faultRates(0.05, 0.05).staleReadRate(0.05).seed(18).build());
        int most = 0;
        for (int i = 0; i < h.size(); i++) {
            run.accept(h.get(i));
            if (i % 1_000 == 999) {
                run.evictBelow(Math.max(0, run.size() - 200));
                assertEquals(run.liveKeys().size(), run.inference().keyCount());
                most = Math.max(most, run.inference().keyCount());
            }
        }
        long keys = h.stream().flatMap(op -> op.value().stream()).map(m -> m.key()).distinct().count();
        assertTrue(keys > 5_000, () -> keys + " keys");
        int peak = most;
        assertTrue(peak < 150, () -> "up to " + peak + " live keys after an eviction");
    }

    private static Set<Long> invokeIndices(List<Txn> txns) {
        return Set.copyOf(txns.stream().map(Txn::invokeIndex).toList());
    }

    @Test
    void negativeCut_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> run.inference().evictBelow(-1));
    }

    /**
     * G1a is reported for the first reader of an aborted append, which here read it before the
     * writer was even invoked and is forgotten; the writer and a later reader are retained.
     */
    @Test
    void abortedRead_whoseFirstReaderIsForgotten_isNotReported() {
        List<Op> h = history()
                .invoke(2, "r:x:1")       // 0: the first reader; forgotten
                .invoke(1, "a:x:1")       // 1: the writer; retained
                .ok(2, "r:x:1")           // 2
                .txn(3, "r:x:1")          // 3, 4: retained
                .fail(1)                  // 5
                .build();
        feed(h.subList(0, 5));
        run.evictBelow(1);
        feed(h.subList(5, 6));

        assertEquals(List.<Finding>of(), run.findings(), "the whole history's G1a names the forgotten reader");
    }
}
