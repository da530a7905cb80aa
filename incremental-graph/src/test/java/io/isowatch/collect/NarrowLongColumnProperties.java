package io.isowatch.collect;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link NarrowLongColumn} reads back what a {@code long[]} would, whatever values are stored and
 * however it grows in between, before and after it widens.
 */
class NarrowLongColumnProperties {

    @Property(tries = 1_000)
    void anyWritesAndGrowth_readBackAsALongArray(@ForAll("writes") List<long[]> writes) {
        NarrowLongColumn column = new NarrowLongColumn(4);
        long[] reference = new long[4];
        for (long[] w : writes) {
            int slot = (int) w[0];
            if (slot >= reference.length) {
                int capacity = slot + 1 + (slot >> 1);
                column.grow(capacity);
                reference = Arrays.copyOf(reference, capacity);
            }
            column.set(slot, w[1]);
            reference[slot] = w[1];
            assertEquals(reference.length, column.capacity());
            for (int i = 0; i < reference.length; i++) {
                assertEquals(reference[i], column.get(i), "slot " + i);
            }
        }
    }

    @Provide
    Arbitrary<List<long[]>> writes() {
        Arbitrary<Long> values = Arbitraries.oneOf(
                Arbitraries.longs().between(-1, 1_000),
                Arbitraries.longs().between(Integer.MIN_VALUE - 2L, Integer.MIN_VALUE + 2L),
                Arbitraries.longs().between(Integer.MAX_VALUE - 2L, Integer.MAX_VALUE + 2L),
                Arbitraries.longs());
        return Arbitraries.integers().between(0, 40)
                .flatMap(slot -> values.map(v -> new long[] {slot, v}))
                .list().ofMaxSize(60);
    }

    @Test
    void staysNarrowWhileValuesFitAnInt() {
        NarrowLongColumn column = new NarrowLongColumn(2);
        column.set(0, Integer.MAX_VALUE);
        column.set(1, Integer.MIN_VALUE);
        assertFalse(column.isWide());
        column.set(1, Integer.MAX_VALUE + 1L);
        assertTrue(column.isWide());
        assertEquals(Integer.MAX_VALUE, column.get(0));
        assertEquals(Integer.MAX_VALUE + 1L, column.get(1));
    }
}
