package io.isowatch.anomaly;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.trace.TraceListener;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

class FindingIdTest {

    /** A committed transaction completing at history index {@code index}, with checker id {@code id}. */
    private static Txn txn(int id, long index) {
        return new Txn(id, index - 1, index * 100 - 10,
                new Op(index, index * 100, OpType.OK, id, List.of(new MicroOp.Append(1, index))));
    }

    private static Finding.Step ww(Txn from, Txn to) {
        return new Finding.Step(from, to, new Evidence.WriteWrite(1, from.index(), to.index()));
    }

    private static Finding.Step rw(Txn from, Txn to) {
        return new Finding.Step(from, to, new Evidence.ReadWrite(2, false, from.index(), to.index()));
    }

    /** The ring a → b → c → a, starting at the given position. */
    private static Finding.Cycle ring(AnomalyType type, List<Txn> ring, int start) {
        List<Finding.Step> steps = new ArrayList<>();
        int n = ring.size();
        for (int k = 0; k < n; k++) {
            Txn from = ring.get((start + k) % n);
            Txn to = ring.get((start + k + 1) % n);
            steps.add(k == n - 1 ? rw(from, to) : ww(from, to));
        }
        return new Finding.Cycle(type, steps);
    }

    @Test
    void of_isThirtyTwoLowerCaseHexCharacters_andPinned() {
        Finding.Cycle c = ring(AnomalyType.G0, List.of(txn(0, 3), txn(1, 7)), 0);
        String id = FindingId.of(c);
        assertEquals(FindingId.HEX_LENGTH, id.length());
        assertTrue(id.matches("[0-9a-f]{32}"), id);
        // Pinned: a change here means every consumer's de-duplication breaks across versions.
        assertEquals(id, FindingId.of(c, new AtomTable()));
        assertEquals("affec2738accb870335e0e55225aa2c9", id);
    }

    @Test
    void cycle_foundFromAnotherEdge_getsTheSameId() {
        List<Txn> txns = List.of(txn(4, 20), txn(1, 5), txn(7, 11));
        Set<String> ids = new HashSet<>();
        for (int start = 0; start < 3; start++) {
            ids.add(FindingId.of(ring(AnomalyType.G2_ITEM, txns, start)));
        }
        assertEquals(1, ids.size(), ids.toString());
    }

    @Test
    void cycle_checkerIdsAndEvidence_doNotMatter() {
        Finding.Cycle a = ring(AnomalyType.G_SINGLE_ITEM, List.of(txn(0, 3), txn(1, 7)), 0);
        Finding.Cycle b = new Finding.Cycle(AnomalyType.G_SINGLE_ITEM, List.of(
                new Finding.Step(txn(9, 3), txn(8, 7), new Evidence.WriteRead(5, 3)),
                new Finding.Step(txn(8, 7), txn(9, 3), new Evidence.ReadWrite(5, true, 0, 3))));
        assertEquals(FindingId.of(a), FindingId.of(b));
    }

    @Test
    void cycle_otherTypeOrDirectionOrTransactions_getsAnotherId() {
        Txn t1 = txn(0, 3);
        Txn t2 = txn(1, 7);
        Txn t3 = txn(2, 9);
        String base = FindingId.of(ring(AnomalyType.G2_ITEM, List.of(t1, t2, t3), 0));
        assertNotEquals(base, FindingId.of(ring(AnomalyType.G2_ITEM_REALTIME, List.of(t1, t2, t3), 0)));
        assertNotEquals(base, FindingId.of(ring(AnomalyType.G2_ITEM, List.of(t1, t3, t2), 0)));
        assertNotEquals(base, FindingId.of(ring(AnomalyType.G2_ITEM, List.of(t1, t2, txn(2, 10)), 0)));
    }

    @Test
    void rotateToSmallest_startsAtTheSmallestIndex_andBreaksTiesLexicographically() {
        assertArrayEquals(new long[] {2, 9, 5}, FindingId.rotateToSmallest(new long[] {5, 2, 9}));
        assertArrayEquals(new long[] {1, 3, 1, 4}, FindingId.rotateToSmallest(new long[] {1, 4, 1, 3}));
        assertArrayEquals(new long[] {7}, FindingId.rotateToSmallest(new long[] {7}));
    }

    @Test
    void stringKeys_doNotDependOnTheOrderATableSawThem() {
        AtomTable first = new AtomTable();
        long x1 = first.ofString("x");
        long a1 = first.ofString("a");
        AtomTable second = new AtomTable();
        long a2 = second.ofString("a");
        long x2 = second.ofString("x");
        assertNotEquals(x1, x2, "the test needs the atoms to differ");
        String one = FindingId.of(new Finding.IncompatibleOrder(x1, new long[] {a1}, new long[] {1}), first);
        String two = FindingId.of(new Finding.IncompatibleOrder(x2, new long[] {a2}, new long[] {1}), second);
        assertEquals(one, two);
        // The string "1" and the integer 1 are different values.
        long s1 = second.ofString("1");
        assertNotEquals(one, FindingId.of(new Finding.IncompatibleOrder(x2, new long[] {a2}, new long[] {s1}), second));
    }

    @Test
    void lostUpdate_transactionOrder_doesNotMatter() {
        Txn a = txn(0, 4);
        Txn b = txn(1, 8);
        assertEquals(FindingId.of(new Finding.LostUpdate(3, new long[] {1}, List.of(a, b))),
                FindingId.of(new Finding.LostUpdate(3, new long[] {1}, List.of(b, a))));
        assertNotEquals(FindingId.of(new Finding.LostUpdate(3, new long[] {1}, List.of(a, b))),
                FindingId.of(new Finding.LostUpdate(4, new long[] {1}, List.of(a, b))));
    }

    @Test
    void badRead_elementAndWriter_areParts() {
        Txn reader = txn(0, 9);
        Txn writer = txn(1, 4);
        String base = FindingId.of(new Finding.BadRead(AnomalyType.G1A, reader, 0, 5, writer));
        assertEquals(base, FindingId.of(new Finding.BadRead(AnomalyType.G1A, txn(3, 9), 0, 5, txn(2, 4))));
        assertNotEquals(base, FindingId.of(new Finding.BadRead(AnomalyType.G1A, reader, 0, 6, writer)));
        assertNotEquals(base, FindingId.of(new Finding.BadRead(AnomalyType.G1B, reader, 0, 5, writer)));
        assertNotEquals(base, FindingId.of(new Finding.BadRead(AnomalyType.GARBAGE_READ, reader, 0, 5, null)));
    }

    @Test
    void cyclicVersions_rotationAndClosingRepeat_doNotMatter() {
        long nil = TraceListener.NIL;
        String a = FindingId.of(new Finding.CyclicVersions(1, new long[] {nil, 3, 5}, "wfr-keys"));
        assertEquals(a, FindingId.of(new Finding.CyclicVersions(1, new long[] {3, 5, nil}, "wfr-keys")));
        assertEquals(a, FindingId.of(new Finding.CyclicVersions(1, new long[] {5, nil, 3, 5}, "wfr-keys")));
        assertNotEquals(a, FindingId.of(new Finding.CyclicVersions(1, new long[] {nil, 3, 5}, "sequential-keys")));
        assertNotEquals(a, FindingId.of(new Finding.CyclicVersions(1, new long[] {nil, 5, 3}, "wfr-keys")));
    }

    @Test
    void everyKindOfFinding_getsAnIdOfItsOwn() {
        Txn a = txn(0, 4);
        Txn b = txn(1, 8);
        List<Finding> findings = List.of(
                ring(AnomalyType.G1C, List.of(a, b), 0),
                new Finding.BadRead(AnomalyType.FUTURE_READ, a, 0, 4, null),
                new Finding.Internal(a, 0, new long[] {1}, false),
                new Finding.DuplicateElements(a, 0, Map.of(1L, 2)),
                new Finding.IncompatibleOrder(1, new long[] {1}, new long[] {2}),
                new Finding.DirtyUpdate(1, new long[] {4, 8}, a, b),
                new Finding.LostUpdate(1, new long[] {1}, List.of(a, b)),
                new Finding.CyclicVersions(1, new long[] {4, 8}, "wfr-keys"),
                new Finding.CycleExists(AnomalyType.PL_SI_CYCLE_EXISTS, "snapshot-isolation", "ww+wr", List.of(a, b)),
                new Finding.Undecided(AnomalyType.CYCLE_SEARCH_TIMEOUT, "budget", List.of(a, b)));
        Set<String> ids = new HashSet<>();
        for (Finding f : findings) {
            ids.add(FindingId.of(f));
            assertEquals(FindingId.of(f), FindingId.of(f), "deterministic");
        }
        assertEquals(findings.size(), ids.size());
    }
}
