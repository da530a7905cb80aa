package io.isowatch.history;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AtomTableTest {

    @Test
    void integers_areTheirOwnAtoms_andAddNoStrings() {
        AtomTable atoms = new AtomTable();
        assertEquals(42, AtomTable.ofInteger(42));
        assertFalse(AtomTable.isString(AtomTable.ofInteger(-7)));
        assertEquals(0, atoms.stringCount());
    }

    @Test
    void strings_getOneCodeEach_andAreCounted() {
        AtomTable atoms = new AtomTable();
        long user = atoms.ofString("user:1");
        assertEquals(user, atoms.ofString("user:1"));
        long other = atoms.ofString("user:2");
        assertTrue(AtomTable.isString(user) && AtomTable.isString(other) && user != other);
        assertEquals(2, atoms.stringCount());
        assertEquals("user:2", atoms.valueOf(other));
    }

    @Test
    void integerInTheStringBand_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> AtomTable.ofInteger(Long.MIN_VALUE));
    }
}
