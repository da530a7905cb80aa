package io.isowatch.explain;

import static io.isowatch.explain.ExplainFixturesTest.ok;
import static io.isowatch.explain.ExplainFixturesTest.step;
import static io.isowatch.explain.ExplainFixturesTest.txn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.AtomTable;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

class FindingTextTest {

    private final AtomTable atoms = new AtomTable();

    @Test
    void render_twoStepGSingle_matchesElleWordForWord() {
        ExplainFixturesTest.GSingle g = new ExplainFixturesTest.GSingle();
        String expected = "Let:\n"
                + "  T1 = {:index 3, :time 300, :type :ok, :process 0, :f :txn, :value [[:append 255 8] [:append 256 3]]}\n"
                + "  T2 = {:index 7, :time 700, :type :ok, :process 1, :f :txn, :value [[:r 255 [8]] [:r 256 [1 2]]]}\n"
                + "\n"
                + "Then:\n"
                + "  - T1 < T2, because T2 observed T1's append of 8 to key 255.\n"
                + "  - However, T2 < T1, because T2 did not observe T1's append of 3 to 256: a contradiction!";
        assertEquals(expected, FindingText.render(g.cycle, atoms));
    }

    @Test
    void title_cycle_namesShapeSizeAndIndices() {
        ExplainFixturesTest.GSingle g = new ExplainFixturesTest.GSingle();
        assertEquals("G-single-item: T1 -wr-> T2 -rw-> T1, a cycle of 2 transactions (indices 3, 7)",
                FindingText.title(g.cycle));
    }

    @Test
    void render_threeStepsWithWwProcessAndRealtime_usesEachExplainer() {
        Txn t1 = ok(1, 12, 0, "a:1:1");
        Txn t2 = ok(2, 20, 0, "a:1:2");
        Txn t3 = ok(3, 9, 1, "r:2:5");
        Finding.Cycle c = new Finding.Cycle(AnomalyType.G0_REALTIME, List.of(
                step(t1, t2, new Evidence.WriteWrite(1, 1, 2)),
                step(t2, t3, new Evidence.Process(0)),
                step(t3, t1, new Evidence.Realtime(9, 900, 11, 900))));
        String then = FindingText.render(c, atoms).split("Then:\n")[1];
        assertEquals("  - T1 < T2, because T2 appended 2 after T1 appended 1 to 1.\n"
                + "  - T2 < T3, because process 0 executed T2 before T3.\n"
                + "  - However, T3 < T1, because T3 completed at index 9, just before the invocation of T1,"
                + " at index 11: a contradiction!", then);
    }

    @Test
    void realtime_positiveGap_printsSecondsWithThreeDecimals() {
        Txn a = ok(1, 12, 0, "a:1:1");
        Txn b = ok(2, 16, 1, "r:1:1");
        assertEquals("T1 completed at index 12, 0.003 seconds before the invocation of T2, at index 15",
                StepText.render(step(a, b, new Evidence.Realtime(12, 1_000_000, 15, 4_000_000)), "T1", "T2", atoms));
    }

    @Test
    void realtime_zeroOrNegativeGap_saysJust() {
        Txn a = ok(1, 12, 0, "a:1:1");
        Txn b = ok(2, 16, 1, "r:1:1");
        assertEquals("T1 completed at index 12, just before the invocation of T2, at index 15",
                StepText.render(step(a, b, new Evidence.Realtime(12, 5000, 15, 4000)), "T1", "T2", atoms));
        assertEquals("T1 completed at index 12, just before the invocation of T2, at index 15",
                StepText.render(step(a, b, new Evidence.Realtime(12, 5000, 15, 5000)), "T1", "T2", atoms));
    }

    @Test
    void realtime_betweenTwoAgents_namesThemAndTheUncertaintyExceeded() {
        Txn a = ok(1, 12, 0, "a:1:1");
        Txn b = ok(2, 16, 1, "r:1:1");
        Evidence.Realtime rt = new Evidence.Realtime(12, 1_000_000, 15, 151_000_000,
                new Evidence.Agents("a.jsonl", "b.jsonl", 100_000_000));
        assertEquals("T1 completed at index 12 on agent a.jsonl, 0.150 seconds before the invocation of T2, at index 15"
                + " on agent b.jsonl: more than the clock uncertainty of 100 ms",
                StepText.render(step(a, b, rt), "T1", "T2", atoms));
        assertEquals("realtime 12@a.jsonl < 15@b.jsonl", StepText.label(rt, atoms));
        assertEquals("0.25 ms", StepText.uncertainty(250_000));
        assertEquals("0 ms", StepText.uncertainty(0));
    }

    @Test
    void realtime_unknownTime_saysNothingAboutTheGapAsElleDoes() {
        Txn a = ok(1, 12, 0, "a:1:1");
        Txn b = ok(2, 16, 1, "r:1:1");
        assertEquals("T1 completed at index 12, before the invocation of T2, at index 15",
                StepText.render(step(a, b, new Evidence.Realtime(12, -1, 15, 4000)), "T1", "T2", atoms));
    }

    @Test
    void rw_fromInitialState_usesElleInitialWording() {
        Txn reader = ok(1, 4, 0, "r:256:");
        Txn writer = ok(2, 6, 1, "a:256:3");
        assertEquals("T1 observed the initial (nil) state of 256, which T2 created by appending 3",
                StepText.render(step(reader, writer, new Evidence.ReadWrite(256, true, 0, 3)), "T1", "T2", atoms));
    }

    @Test
    void registerEdges_useRwRegisterWording() {
        Txn w5 = ok(1, 2, 0, "w:3:5");
        Txn w7 = ok(2, 4, 1, "w:3:7");
        Txn r5 = ok(3, 6, 2, "r:3:5");
        Txn rNil = ok(4, 8, 3, "r:3:");
        assertEquals("T1 set key 3 to 5, and T2 set it to 7, which came later in the version order",
                StepText.render(step(w5, w7, new Evidence.WriteWrite(3, 5, 7)), "T1", "T2", atoms));
        assertEquals("T1 read key 3 = 5, and T2 set it to 7, which came later in the version order",
                StepText.render(step(r5, w7, new Evidence.ReadWrite(3, false, 5, 7)), "T1", "T2", atoms));
        assertEquals("T1 read key 3 = nil, and T2 set it to 7, which came later in the version order",
                StepText.render(step(rNil, w7, new Evidence.ReadWrite(3, true, 0, 7)), "T1", "T2", atoms));
        assertEquals("T1 wrote 3 = 5, which was read by T2",
                StepText.render(step(w5, r5, new Evidence.WriteRead(3, 5)), "T1", "T2", atoms));
    }

    @Test
    void render_g1a_namesReadWriterElementAndOps() {
        Txn writer = txn(1, 3, 300, OpType.FAIL, 0, "a:5:2");
        Txn reader = ok(2, 8, 1, "r:5:1,2");
        Finding f = new Finding.BadRead(AnomalyType.G1A, reader, 0, 2, writer);
        assertEquals("T2 read key 5 = [1 2], but element 2 was appended by T1, which aborted (:fail):\n"
                + "  T1 = {:index 3, :time 300, :type :fail, :process 0, :f :txn, :value [[:append 5 2]]}\n"
                + "  T2 = {:index 8, :time 800, :type :ok, :process 1, :f :txn, :value [[:r 5 [1 2]]]}",
                FindingText.render(f, atoms));
        assertEquals("G1a: T2 read an element appended by T1, which aborted (indices 3, 8)", FindingText.title(f));
    }

    @Test
    void render_g1b_namesTheLaterAppend() {
        Txn writer = ok(1, 3, 0, "a:5:2 a:5:4");
        Txn reader = ok(2, 8, 1, "r:5:1,2");
        String text = FindingText.render(new Finding.BadRead(AnomalyType.G1B, reader, 0, 2, writer), atoms);
        assertTrue(text.startsWith("T2 read key 5 = [1 2], ending in element 2, which T1 appended to key 5"
                + " before also appending 4: T2 saw an intermediate state of T1, not the state T1 committed:\n"), text);
    }

    @Test
    void render_garbageAndFutureRead_sayWhereTheElementCameFrom() {
        Txn t = ok(1, 4, 0, "r:5:1,9 a:5:9");
        String garbage = FindingText.render(new Finding.BadRead(AnomalyType.GARBAGE_READ, t, 0, 9, null), atoms);
        assertTrue(garbage.startsWith("T1 read key 5 = [1 9], but that includes element 9 of key 5,"
                + " which no transaction ever appended:\n  T1 = {:index 4"), garbage);
        String future = FindingText.render(new Finding.BadRead(AnomalyType.FUTURE_READ, t, 0, 9, null), atoms);
        assertTrue(future.startsWith("T1 read key 5 = [1 9], but element 9 is appended by T1 itself only later"
                + " in the same transaction: it read its own future write:\n"), future);
    }

    @Test
    void render_internalWithUnknownPrefix_printsElleEllipsis() {
        Txn t = ok(1, 4, 0, "a:5:3 r:5:1");
        String text = FindingText.render(new Finding.Internal(t, 1, new long[] {3}, true), atoms);
        assertTrue(text.startsWith("T1 read key 5 = [1], but its own earlier steps imply it should have seen [... 3]:\n"
                + "  T1 = {:index 4, :time 400"), text);
    }

    @Test
    void render_otherFindings_nameKeysElementsAndTransactions() {
        Txn t1 = txn(1, 3, 300, OpType.FAIL, 0, "a:5:3");
        Txn t2 = ok(2, 6, 1, "a:5:4 r:5:3,3,4,4,4");
        Txn t3 = ok(3, 9, 2, "r:5:3 a:5:5");
        assertTrue(FindingText.render(new Finding.DuplicateElements(t2, 1, Map.of(3L, 2, 4L, 3)), atoms)
                .startsWith("T1 read key 5 = [3 3 4 4 4], in which elements 3 (2 times) and 4 (3 times) appear"
                        + " more than once"));
        assertEquals("Key 5 was read as [1 2] and as [1 3 2]; neither is a prefix of the other, so no single"
                + " order of appends to key 5 explains both reads.",
                FindingText.render(new Finding.IncompatibleOrder(5, new long[] {1, 2}, new long[] {1, 3, 2}), atoms));
        assertTrue(FindingText.render(new Finding.DirtyUpdate(5, new long[] {3, 4}, t1, t2), atoms)
                .startsWith("Key 5 went through versions [3 4]: T1 appended 3 and aborted (:fail), yet T2, which"
                        + " committed (:ok), appended 4 after it."));
        assertTrue(FindingText.render(new Finding.LostUpdate(5, new long[] {3}, List.of(t2, t3)), atoms)
                .startsWith("T1 and T2 both read key 5 = [3], then appended to key 5, and committed"));
        Finding u = new Finding.Undecided(AnomalyType.CYCLE_SEARCH_TIMEOUT, "component of 40000 txns", List.of());
        assertTrue(FindingText.render(u, atoms).startsWith("The cycle search ran out of budget (component of 40000"));
        assertEquals("cycle-search-timeout: component of 40000 txns", FindingText.title(u));
    }

    @Test
    void render_readIndexNotARead_throwsNamingTheOp() {
        Txn t = ok(1, 4, 0, "a:5:3");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FindingText.render(new Finding.Internal(t, 0, new long[] {3}, false), atoms));
        assertTrue(e.getMessage().contains("index 4"), e.getMessage());
    }

    @Test
    void render_stringKeys_areQuoted() {
        long k = atoms.ofString("users");
        Txn a = ok(1, 2, 0, "r:1:1");
        Txn b = ok(2, 4, 1, "r:1:1");
        assertEquals("T2 observed T1's append of 8 to key \"users\"",
                StepText.render(step(a, b, new Evidence.WriteRead(k, 8)), "T1", "T2", atoms));
    }
}
