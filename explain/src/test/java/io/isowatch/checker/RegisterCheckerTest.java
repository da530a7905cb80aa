package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.explain.FindingText;
import io.isowatch.graph.DependencyGraph;
import io.isowatch.graph.EdgeKind;
import io.isowatch.graph.Edges;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static io.isowatch.checker.RegisterHistories.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Readable examples of rw-register checking: which edges a register history implies, how they are
 * explained, and how bad input is rejected. The regression tests at the end were departures from
 * Elle found with {@link RegisterCheckerProperties}; each states Elle's verdict from Elle's source,
 * confirmed by {@link RegisterBatchReference} before the checker is asked, and fails until the
 * checker is fixed (the matching {@link RegisterBatchReference.Deviation} goes with the fix).
 * Transactions are numbered by invocation order: T0 is the first invoked.
 */
class RegisterCheckerTest {

    private static final Set<String> STRICT = Set.of("strict-serializable");

    // ---- edges ----

    @Test
    void nilRead_beforeEveryWrite_isRwToEachWriter() {
        List<Op> h = history()
                .invoke(0, "r:x:").invoke(1, "w:x:1").invoke(2, "w:x:2")
                .ok(0, "r:x:").ok(1, "w:x:1").ok(2, "w:x:2")
                .build();
        assertEquals(Set.of("0 rw 1", "0 rw 2"), edges(h, RegisterHistories.Sources.NONE));
    }

    @Test
    void readOfAWrite_isWrFromItsWriter_andNilReadersPrecedeTheWriter() {
        List<Op> h = history()
                .invoke(0, "w:x:1").invoke(1, "r:x:1").invoke(2, "r:x:")
                .ok(0, "w:x:1").ok(1, "r:x:1").ok(2, "r:x:")
                .build();
        assertEquals(Set.of("0 wr 1", "2 rw 0"), edges(h, RegisterHistories.Sources.NONE));
    }

    @Test
    void twoWrites_withoutAssumedSources_areUnordered() {
        List<Op> h = history()
                .invoke(0, "w:x:1").invoke(1, "w:x:2").ok(0, "w:x:1").ok(1, "w:x:2")
                .invoke(2, "r:x:2").ok(2, "r:x:2")
                .build();
        assertEquals(Set.of("1 wr 2"), edges(h, RegisterHistories.Sources.NONE));
    }

    @Test
    void writesFollowReads_readThenWrite_ordersTheVersionRead_beforeTheVersionWritten() {
        // T1 reads 1 and writes 2: with --wfr-keys 1 -> 2, so ww T0 -> T1 and rw T2 -> T1 (T2 read 1).
        List<Op> h = history()
                .txn(0, "w:x:1")
                .invoke(1, "r:x:1 w:x:2").invoke(2, "r:x:1").ok(1, "r:x:1 w:x:2").ok(2, "r:x:1")
                .build();
        assertEquals(Set.of("0 wr 1", "0 wr 2"), edges(h, RegisterHistories.Sources.NONE));
        assertEquals(Set.of("0 wr 1", "0 ww 1", "0 wr 2", "2 rw 1"), edges(h, RegisterHistories.Sources.WFR));
    }

    @Test
    void sequentialKeys_processOrder_ordersAProcesssVersions() {
        // Process 0 writes 1, then reads 2: with --sequential-keys 1 -> 2, so ww T0 -> T1.
        List<Op> h = history()
                .txn(0, "w:x:1")
                .invoke(1, "w:x:2").invoke(0, "r:x:2").ok(1, "w:x:2").ok(0, "r:x:2")
                .build();
        assertEquals(Set.of("1 wr 2", "0 ww 1"), edges(h, RegisterHistories.Sources.SEQUENTIAL));
    }

    @Test
    void contradictedSource_isDroppedWhole_onEveryKey() {
        // Writes-follow-reads says x 1 -> 2 and 2 -> 1 (cyclic-versions), so it is dropped, and with
        // it y 5 -> 6, which alone would have made T4's stale read of y a G-single-item.
        List<Op> h = history()
                .txn(0, "w:y:5")
                .invoke(1, "r:x:1 w:x:2").invoke(2, "r:x:2 w:x:1").invoke(3, "r:y:5 w:y:6 w:z:1")
                .invoke(4, "r:z:1 r:y:5")
                .ok(1, "r:x:1 w:x:2").ok(2, "r:x:2 w:x:1").ok(3, "r:y:5 w:y:6 w:z:1").ok(4, "r:z:1 r:y:5")
                .build();
        assertVerdict(h, RegisterHistories.Sources.WFR, Validity.FALSE, Set.of("G1c", "cyclic-versions"));
        List<Op> consistent = history()
                .txn(0, "w:y:5")
                .invoke(3, "r:y:5 w:y:6 w:z:1").invoke(4, "r:z:1 r:y:5")
                .ok(3, "r:y:5 w:y:6 w:z:1").ok(4, "r:z:1 r:y:5")
                .build();
        assertVerdict(consistent, RegisterHistories.Sources.WFR, Validity.FALSE, Set.of("G-single-item"));
    }

    @Test
    void garbageRead_ofAValueNobodyWrote_isReported() {
        List<Op> h = history()
                .txn(0, "w:x:1 w:y:1")
                .txn(1, "r:x:99 r:y:1")
                .build();
        assertVerdict(h, RegisterHistories.Sources.NONE, Validity.FALSE, Set.of("garbage-read"));
    }

    // ---- explanations ----

    @Test
    void rwStep_explainedInEllesRegisterWords() {
        String text = render(RegisterAnomalyInjector.alone(RegisterAnomalyInjector.Pattern.G2_ITEM),
                RegisterHistories.Sources.NONE, AnomalyType.G2_ITEM);
        assertTrue(text.contains("read key 0 = nil, and T") && text.contains(" set it to 1, which came later in the"
                + " version order"), text);
    }

    @Test
    void wwStep_explainedInEllesRegisterWords() {
        String text = render(RegisterAnomalyInjector.alone(RegisterAnomalyInjector.Pattern.G0_SEQUENTIAL),
                RegisterHistories.Sources.SEQUENTIAL, AnomalyType.G0);
        assertTrue(text.contains(" set key 0 to 1, and T") && text.contains(" set it to 2, which came later in the"
                + " version order"), text);
    }

    @Test
    void wrStep_explainedInEllesRegisterWords() {
        String text = render(RegisterAnomalyInjector.alone(RegisterAnomalyInjector.Pattern.G1C),
                RegisterHistories.Sources.NONE, AnomalyType.G1C);
        assertTrue(text.contains(" wrote 0 = 1, which was read by T"), text);
        assertTrue(text.contains(" wrote 1 = 1, which was read by T"), text);
    }

    // ---- bad input ----

    @Test
    void duplicateWriteOfAValue_isHistoryViolation_namingBothIndices() {
        List<Op> h = history()
                .txn(0, "w:x:1")
                .txn(1, "w:y:3")
                .invoke(2, "w:x:1").ok(2, "w:x:1")
                .build();
        HistoryViolationException e = assertThrows(HistoryViolationException.class,
                () -> RegisterHistories.check(h, RegisterHistories.options(STRICT, RegisterOptions.NONE)));
        assertEquals(4, e.op().index());
        assertTrue(e.getMessage().startsWith("index 4:"), e.getMessage());
        assertTrue(e.getMessage().contains("invoked at index 0"), e.getMessage());
    }

    // ---- known departures from Elle ----

    /**
     * Regression (once a departure from Elle). Each reads the other's write, then overwrites it; with --wfr-keys that gives ww
     * both ways, each pair also joined by the wr of its read. Elle's rw-register graph combines
     * {@code [wr-graph, ww+rw-graph, ...]} and {@code CombinedExplainer} explains a pair by the
     * first explainer that can, so both steps are wr: the ww cycle its G0 search meets is filed as
     * G1c, and the PL-1-cycle-exists fallback stays (G1c does not rule out read-uncommitted).
     * The checker explains a pair by its lowest edge kind, ww, and reports G0.
     */
    @Test
    void wfrWwCycle_explainedAsWr_isG1c_asElleExplainsWrFirst() {
        List<Op> h = RegisterAnomalyInjector.alone(RegisterAnomalyInjector.Pattern.G0_WFR);
        assertElle(h, RegisterHistories.Sources.WFR, Validity.FALSE, Set.of("G1c", "PL-1-cycle-exists"));
    }

    /**
     * Regression (once a departure from Elle). With --linearizable-keys: T1 writes x = 1 and completes; then T2 (writes u) and
     * T3 (reads x = 1, writes x = 2) run, T3 completes first; then T4 writes x = 3 and y = 7.
     * T0, concurrent with all of them, reads x = 1 and y = 7. Elle's realtime graph is
     * T1 -> T2, T1 -> T3, T2 -> T4, T3 -> T4, and its {@code ext-key-graph} relates T1 to every
     * nearest transaction touching x along paths avoiding x: T3, and T4 through T2. So x 1 -> 3:
     * rw T0 -> T4 (T0 read 1), and wr T4 -> T0 (y = 7) closes a G-single-item. The checker relates
     * T1 only to T3 (T3 ran wholly between T1 and T4), and since 1 -> 2 is unknown without
     * --wfr-keys, nothing orders 1 before 3: valid.
     */
    @Test
    void linearizableKeys_realtimePathAvoidingTheKey_ordersVersions_asElleDoes() {
        List<Op> h = history()
                .invoke(4, "r:x: r:y:")
                .txn(0, "w:x:1")
                .invoke(1, "w:u:1").invoke(2, "r:x:1 w:x:2").ok(2, "r:x:1 w:x:2").ok(1, "w:u:1")
                .txn(3, "w:x:3 w:y:7")
                .ok(4, "r:x:1 r:y:7")
                .build();
        assertElle(h, RegisterHistories.Sources.LINEARIZABLE, Validity.FALSE, Set.of("G-single-item"));
    }

    /**
     * Regression (once a departure from Elle). T2 reads x = 1, then x = 2, which T1 wrote and failed. Elle's {@code g1a-cases}
     * scans every read micro-op of ok transactions, not only external reads: G1a, besides the
     * internal (non-repeatable) read. The checker tests only external reads: internal alone.
     */
    @Test
    void abortedRead_inASecondReadOfTheKey_isG1a() {
        List<Op> h = history()
                .txn(0, "w:x:1")
                .invoke(1, "w:x:2").fail(1)
                .txn(2, "r:x:1 r:x:2")
                .build();
        assertElle(h, RegisterHistories.Sources.NONE, Validity.FALSE, Set.of("G1a", "internal"));
    }

    /**
     * Regression (once a departure from Elle). As above with an intermediate write: 2 is T1's first of two writes of x. Elle's
     * {@code g1b-cases} scans every read micro-op: G1b and internal. The checker: internal alone.
     */
    @Test
    void intermediateRead_inASecondReadOfTheKey_isG1b() {
        List<Op> h = history()
                .txn(0, "w:x:1")
                .txn(1, "w:x:2 w:x:3")
                .txn(2, "r:x:1 r:x:2")
                .build();
        assertElle(h, RegisterHistories.Sources.NONE, Validity.FALSE, Set.of("G1b", "internal"));
    }

    /**
     * Regression (once a departure from Elle). T0 writes x = 1 then 2 and fails; T2, concurrent, then commits a read of x = 1. Elle's
     * {@code failed-writes} and {@code intermediate-writes} both cover failed transactions (the
     * latter folds over the whole history), so the read is G1a and G1b. The checker reports a read
     * of a failed writer's value as G1a only (it reports G1b too when the read precedes the
     * failure).
     */
    @Test
    void readOfAFailedTransactionsIntermediateWrite_isG1aAndG1b() {
        List<Op> h = history()
                .invoke(0, "w:x:1 w:x:2").invoke(1, "w:y:1").invoke(2, "r:x:1 r:y:1")
                .fail(0).ok(1, "w:y:1").ok(2, "r:x:1 r:y:1")
                .build();
        assertElle(h, RegisterHistories.Sources.NONE, Validity.FALSE, Set.of("G1a", "G1b"));
    }

    // ---- helpers ----

    /** The data edges of the final graph, as "from kind to". */
    private static Set<String> edges(List<Op> h, RegisterHistories.Sources sources) {
        IncrementalChecker checker = new IncrementalChecker(
                RegisterHistories.options(Set.of("serializable"), sources.options), new AtomTable());
        h.forEach(checker::accept);
        checker.finish();
        DependencyGraph g = checker.graph();
        Set<String> out = new TreeSet<>();
        Edges edges = new Edges();
        for (int n = 0; n < g.nodeCount(); n++) {
            g.outEdges(n, edges);
            for (int i = 0; i < edges.size(); i++) {
                out.add(n + " " + EdgeKind.values()[edges.kind(i)].elleName() + " " + edges.node(i));
            }
        }
        return out;
    }

    private static String render(List<Op> h, RegisterHistories.Sources sources, AnomalyType type) {
        AtomTable atoms = new AtomTable();
        List<Finding> streamed = new ArrayList<>();
        IncrementalChecker checker = new IncrementalChecker(RegisterHistories.options(STRICT, sources.options), atoms,
                streamed::add);
        h.forEach(checker::accept);
        Verdict v = checker.finish();
        List<Finding> found = v.anomalies().get(type);
        assertNotNull(found, () -> "no " + type + " in " + v.anomalyTypes());
        return FindingText.render(found.get(0), atoms);
    }

    private static void assertVerdict(List<Op> h, RegisterHistories.Sources sources, Validity valid,
                                      Set<String> types) {
        Verdict v = RegisterHistories.check(h, RegisterHistories.options(STRICT, sources.options));
        assertEquals(new TreeSet<>(types), CheckerHistories.typeNames(v), "anomaly types");
        assertEquals(valid, v.valid(), "valid");
    }

    /** Elle's verdict, confirmed by the reference, then asked of the checker. */
    private static void assertElle(List<Op> h, RegisterHistories.Sources sources, Validity valid, Set<String> types) {
        RegisterBatchReference.Result r = RegisterBatchReference.check(h, STRICT, Set.of(), sources.options);
        assertNotNull(r, "reference undecided");
        assertEquals(new TreeSet<>(types), r.types(), "reference anomaly types");
        assertEquals(valid, r.valid(), "reference valid");
        assertVerdict(h, sources, valid, types);
    }
}
