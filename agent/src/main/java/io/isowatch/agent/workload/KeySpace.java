package io.isowatch.agent.workload;

import io.isowatch.gen.KeyDistribution;

import java.util.SplittableRandom;

/**
 * The active keys, as Elle's {@code wr-txns} keeps them: a fixed number of slots, each holding a
 * key and the number of writes it has taken; a key that reaches the write limit is retired and
 * its slot gets a fresh key, numbered after every key so far (from the first key up). With the exponential distribution
 * slot {@code i} is picked with probability {@code 2^i / (2^n - 1)}, so the last slots are hot,
 * and a fresh key inherits its slot's heat. Not thread-safe.
 */
final class KeySpace {

    private final long[] keys;
    private final long[] nextValue;
    private final int maxWrites;
    private final KeyDistribution distribution;
    private long nextKey;

    KeySpace(long firstKey, int keyCount, int maxWrites, KeyDistribution distribution) {
        this.keys = new long[keyCount];
        this.nextValue = new long[keyCount];
        this.maxWrites = maxWrites;
        this.distribution = distribution;
        for (int i = 0; i < keyCount; i++) {
            keys[i] = firstKey + i;
            nextValue[i] = 1;
        }
        this.nextKey = firstKey + keyCount;
    }

    int pickSlot(SplittableRandom random) {
        return distribution.pickSlot(random, keys.length);
    }

    long key(int slot) {
        return keys[slot];
    }

    /** The next value to write to the slot's key (unique per key: 1, 2, 3, ...), retiring the key after its last write. */
    long takeValue(int slot) {
        long value = nextValue[slot]++;
        if (value >= maxWrites) {
            keys[slot] = nextKey++;
            nextValue[slot] = 1;
        }
        return value;
    }
}
