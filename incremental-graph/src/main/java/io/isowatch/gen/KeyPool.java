package io.isowatch.gen;

import java.util.SplittableRandom;

/**
 * The active keys, as the {@code :active-keys} vector of Elle's {@code wr-txns}: a fixed number
 * of slots, each holding one key; retiring a key puts a fresh one (one more than any key so far)
 * in its slot.
 */
final class KeyPool {

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
        return distribution.pickSlot(random, slots.length);
    }
}
