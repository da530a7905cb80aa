package io.isowatch.history;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpAtomsTest {

    private final AtomTable agent = new AtomTable();
    private final long x = agent.ofString("x");
    private final long a = agent.ofString("a");
    private final Op op = new Op(4, 100, OpType.OK, 2, List.of(
            new MicroOp.Append(x, a), new MicroOp.Write(7, a), new MicroOp.Read(x, new long[] {a, 1, a}),
            new MicroOp.Read(9, null)), 12);

    @Test
    void stringCount_countsKeysValuesAndReadElements_withRepeats() {
        assertEquals(6, OpAtoms.stringCount(op));
        assertEquals(0, OpAtoms.stringCount(new Op(0, 0, OpType.INVOKE, 0, List.of(new MicroOp.Read(1, null)))));
    }

    @Test
    void map_changingNothing_returnsTheSameOp() {
        assertSame(op, OpAtoms.map(op, atom -> atom));
    }

    @Test
    void map_recodesEveryAtom_andKeepsTheRest() {
        Op mapped = OpAtoms.map(op, atom -> AtomTable.isString(atom) ? atom + 1 : atom);
        assertEquals(new MicroOp.Append(x + 1, a + 1), mapped.value().get(0));
        assertEquals(new MicroOp.Write(7, a + 1), mapped.value().get(1));
        assertArrayEquals(new long[] {a + 1, 1, a + 1}, ((MicroOp.Read) mapped.value().get(2)).values());
        assertSame(op.value().get(3), mapped.value().get(3));
        assertEquals(List.of(op.index(), op.time(), op.type(), op.process(), op.sourceLine()),
                List.of(mapped.index(), mapped.time(), mapped.type(), mapped.process(), mapped.sourceLine()));
    }

    @Test
    void historyEvent_carryingNames_recodesIntoAnotherTable() {
        HistoryEvent e = HistoryEvent.carrying("agent", 3, op, agent);
        assertEquals(List.of("x", "a"), e.strings());
        AtomTable checker = new AtomTable();
        checker.ofString("a");
        Op in = e.opIn(checker);
        MicroOp.Append append = (MicroOp.Append) in.value().get(0);
        assertEquals("x", checker.valueOf(append.key()));
        assertEquals("a", checker.valueOf(append.value()));
        assertTrue(append.key() != x, "re-coded, not copied");
        assertEquals("x", e.atoms().valueOf(x));
    }

    @Test
    void historyEvent_stringAtomItDoesNotName_isRejected() {
        AtomTable one = new AtomTable();
        one.ofString("x");
        HistoryEvent e = HistoryEvent.carrying("agent", 3, op, one); // names x, not a
        assertThrows(IllegalArgumentException.class, () -> e.opIn(new AtomTable()));
    }
}
