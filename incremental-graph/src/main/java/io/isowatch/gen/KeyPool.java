package io.isowatch.gen;

import java.util.SplittableRandom;

/**
 * The active keys, as the {@code :active-keys} vector of Elle's {@code wr-txns}: a fixed number
 * of slots, each holding one key; retiring a key puts a fresh one (one more than any key so far)
 * in its slot.
 */
final class KeyPool {

    private static final double LN_2 = StrictMath.log(2);

    private final KeyCell[] slots;
    private final KeyDistribution distribution;
    private long nextFreshKey;

    KeyPool(int keyCount, KeyDistribution distribution) {
        this.slots = new KeyCell[keyCount];
        this.distribution = distribution;
        for (int i = 0; i < keyCount; i++) {
            slots[i] = new KeyCell(i);
        }
        this.nextFreshKey = keyCount;
    }

    KeyCell cell(int slot) {
        return slots[slot];
    }

    /** Replaces the key in a slot with a fresh key and returns the new cell. */
    KeyCell retire(int slot) {
        KeyCell fresh = new KeyCell(nextFreshKey++);
        slots[slot] = fresh;
        return fresh;
    }

    /** Picks a slot as Elle's {@code rand-key} does. */
    int pickSlot(SplittableRandom random) {
        if (distribution == KeyDistribution.UNIFORM) {
            return random.nextInt(slots.length);
        }
        return exponentialSlot(random.nextDouble(), slots.length);
    }

    /**
     * Elle's exponential choice with base 2: {@code floor(log2(u * scale + 2) - 1)} with
     * {@code scale = 2 (2^n - 1)}, which picks slot {@code i} with probability
     * {@code 2^i / (2^n - 1)}. Rewritten as {@code n + log2(u + (1 - u) 2^-n)} because
     * {@code 2^n} overflows a double past about a thousand keys; StrictMath keeps the result
     * identical on every JVM, so a seed means the same history everywhere.
     */
    static int exponentialSlot(double u, int n) {
        double x = u + (1 - u) * StrictMath.scalb(1.0, -n);
        if (x <= 0) {
            return 0;
        }
        double slot = Math.floor(n + StrictMath.log(x) / LN_2);
        if (slot < 0) {
            return 0;
        }
        return slot >= n ? n - 1 : (int) slot;
    }
}
