package io.isowatch.gen;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyPoolTest {

    @Test
    void exponentialSlot_agreesWithEllesFormula() {
        for (int n = 1; n <= 20; n++) {
            double scale = (Math.pow(2, n) - 1) * 2;
            for (int i = 0; i < 1_000; i++) {
                double u = i / 1_000.0 + 0.0004;
                long elle = (long) Math.floor(Math.log(u * scale + 2) / Math.log(2) - 1);
                assertEquals(elle, KeyDistribution.exponentialSlot(u, n), "n=" + n + " u=" + u);
            }
        }
    }

    @Test
    void exponentialSlot_picksSlotIWithProbabilityTwoToTheI() {
        SplittableRandom random = new SplittableRandom(1);
        int n = 4;
        int[] counts = new int[n];
        int draws = 150_000;
        for (int i = 0; i < draws; i++) {
            counts[KeyDistribution.exponentialSlot(random.nextDouble(), n)]++;
        }
        for (int slot = 0; slot < n; slot++) {
            double expected = draws * Math.pow(2, slot) / (Math.pow(2, n) - 1);
            assertEquals(expected, counts[slot], expected * 0.05 + 50, "slot " + slot);
        }
    }

    @Test
    void exponentialSlot_staysInRangeForHugePools() {
        for (double u : new double[] {0, 1e-300, 0.5, Math.nextDown(1.0)}) {
            int slot = KeyDistribution.exponentialSlot(u, 100_000);
            assertTrue(slot >= 0 && slot < 100_000, "u=" + u + " slot=" + slot);
        }
        assertEquals(99_999, KeyDistribution.exponentialSlot(0.75, 100_000));
        assertEquals(0, KeyDistribution.exponentialSlot(0, 5));
    }

    @Test
    void retire_putsOneMoreThanAnyKeyInTheSlot() {
        KeyPool pool = new KeyPool(3, KeyDistribution.UNIFORM);
        KeyCell old = pool.cell(1);
        KeyCell fresh = pool.retire(1);
        assertNotSame(old, fresh);
        assertEquals(3, fresh.key());
        assertEquals(4, pool.retire(1).key());
        assertEquals(5, pool.retire(0).key());
        assertEquals(2, pool.cell(2).key());
    }

    @Test
    void keyCell_snapshotsAreCopies() {
        KeyCell cell = new KeyCell(7);
        assertEquals(0, cell.snapshot().length);
        assertEquals(1, cell.issueValue());
        cell.append(1);
        long[] before = cell.snapshot();
        cell.append(5);
        assertEquals(1, before.length);
        assertEquals(2, cell.snapshot().length);
        assertEquals(1, cell.valuesIssued());
    }
}
