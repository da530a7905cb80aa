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
        if (distribution == KeyDistribution.UNIFORM) {
            return random.nextInt(keys.length);
        }
        return exponential(random.nextDouble(), keys.length);
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

    /**
     * Inverse of the CDF {@code (2^(i+1) - 1) / (2^n - 1)}: slot {@code floor(log2(u (2^n - 1) + 1))},
     * computed as {@code n + log2(u (1 - 2^-n) + 2^-n)} so that large {@code n} does not overflow.
     */
    static int exponential(double u, int n) {
        double tiny = Math.scalb(1.0, -Math.min(n, 1074));
        double slot = Math.floor(n + Math.log(u * (1 - tiny) + tiny) / Math.log(2));
        if (!(slot >= 0)) {
            return 0;
        }
        return slot >= n ? n - 1 : (int) slot;
    }
}
