package io.isowatch.gen;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
    void exponentialPool_makesTheLastSlotsHot() {
        int n = 10;
        int[] counts = new int[n];
        SplittableRandom random = new SplittableRandom(1);
        KeyPool keys = new KeyPool(0, n, 1_000, KeyDistribution.EXPONENTIAL);
        for (int i = 0; i < 100_000; i++) {
            counts[keys.pickSlot(random)]++;
        }
        // Slot i has probability 2^i / (2^n - 1): the last slot about half the time.
        assertTrue(Math.abs(counts[n - 1] / 100_000.0 - 512.0 / 1023) < 0.01, () -> Arrays.toString(counts));
        assertTrue(Math.abs(counts[n - 2] / 100_000.0 - 256.0 / 1023) < 0.01, () -> Arrays.toString(counts));
    }

    @Test
    void takeValue_numbersEachKeysValuesFromOne_upToMaxWrites() {
        KeyPool pool = new KeyPool(0, 2, 3, KeyDistribution.UNIFORM);
        assertEquals(1, pool.takeValue(0));
        assertEquals(2, pool.takeValue(0));
        assertEquals(1, pool.takeValue(1));
        assertEquals(3, pool.takeValue(0));
        assertEquals(0, pool.key(0), "a key that has handed out its last value stays until a write finds it used up");
    }

    @Test
    void takeValue_onAUsedUpKey_retiresIt_forOneMoreThanAnyKeyInTheSlot() {
        KeyPool pool = new KeyPool(0, 3, 1, KeyDistribution.UNIFORM);
        assertEquals(1, pool.takeValue(1));
        assertEquals(KeyPool.RETIRED, pool.takeValue(1));
        assertEquals(3, pool.key(1));
        assertEquals(1, pool.takeValue(1), "a fresh key numbers its values from 1 again");
        assertEquals(KeyPool.RETIRED, pool.takeValue(1));
        assertEquals(4, pool.key(1));
        pool.takeValue(0);
        assertEquals(KeyPool.RETIRED, pool.takeValue(0));
        assertEquals(5, pool.key(0));
        assertEquals(2, pool.key(2));
    }

    @Test
    void firstKey_offsetsTheKeys_andTheFreshOnes() {
        KeyPool pool = new KeyPool(1_000_000, 2, 1, KeyDistribution.UNIFORM);
        assertEquals(1_000_000, pool.key(0));
        assertEquals(1_000_001, pool.key(1));
        pool.takeValue(0);
        pool.takeValue(0);
        assertEquals(1_000_002, pool.key(0));
    }

    @Test
    void badSizes_areRejectedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new KeyPool(0, 0, 1, KeyDistribution.UNIFORM));
        assertTrue(e.getMessage().startsWith("keyCount"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new KeyPool(0, 1, 0, KeyDistribution.UNIFORM));
        assertTrue(e.getMessage().startsWith("maxWritesPerKey"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new KeyPool(-1, 1, 1, KeyDistribution.UNIFORM));
        assertTrue(e.getMessage().startsWith("firstKey"), e.getMessage());
    }

    @Test
    void keyCell_snapshotsAreCopies() {
        KeyCell cell = new KeyCell(7);
        assertEquals(0, cell.snapshot().length);
        cell.append(1);
        long[] before = cell.snapshot();
        cell.append(5);
        assertEquals(1, before.length);
        assertEquals(2, cell.snapshot().length);
    }

    @Test
    void sharedByTime_twoPoolsInOneGeneration_holdTheSameKeys_andMoveOnTogether() {
        KeyPool a = KeyPool.sharedByTime(10, 3, KeyDistribution.UNIFORM, 5);
        KeyPool b = KeyPool.sharedByTime(10, 3, KeyDistribution.UNIFORM, 5);
        for (int slot = 0; slot < 3; slot++) {
            assertEquals(10 + slot + 3 * 5, a.key(slot));
            assertEquals(a.key(slot), b.key(slot));
        }
        for (int i = 1; i <= 100; i++) {
            assertEquals(i, a.takeValue(0), "no count retires a shared key");
        }
        assertEquals(0, a.advanceTo(5).length, "the same generation: nothing leaves");
        assertArrayEquals(new long[] {25, 26, 27}, a.advanceTo(7));
        assertEquals(10 + 3 * 7, a.key(0));
        assertEquals(1, a.takeValue(0), "a new generation's key numbers its values from 1");
        assertArrayEquals(new long[] {25, 26, 27}, b.advanceTo(7));
        assertEquals(a.key(2), b.key(2));
        assertEquals(0, a.advanceTo(6).length, "generations never go back");
        assertThrows(IllegalStateException.class, () -> new KeyPool(0, 2, 3, KeyDistribution.UNIFORM).advanceTo(1));
    }
}
