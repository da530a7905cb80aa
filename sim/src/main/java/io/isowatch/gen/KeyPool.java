package io.isowatch.gen;

import java.util.Objects;
import java.util.SplittableRandom;

/**
 * The active keys of a workload, as the {@code :active-keys} vector of Elle's {@code wr-txns}: a
 * fixed number of slots, each holding one key and the number of values it has handed out. The
 * one pool behind both the generator ({@code gen}) and the agent's workloads.
 *
 * <p>Keys are numbered upwards from {@code firstKey}; a retired key's slot gets a fresh key, one
 * more than any key so far, and keeps the slot's heat under {@link KeyDistribution#EXPONENTIAL}.
 * Each key hands out the values 1, 2, 3, ... up to {@code maxWritesPerKey}. Values are handed out
 * when a transaction is shaped (at invocation, as Jepsen's generator does), so an aborted write
 * leaves a gap. Not thread-safe.
 */
public final class KeyPool {

    /** What {@link #takeValue} returns when it retires the key instead; never a value. */
    public static final long RETIRED = -1;

    private final long[] keys;
    private final long[] valuesIssued;
    private final int maxWritesPerKey;
    private final KeyDistribution distribution;
    private long nextFreshKey;

    /**
     * A pool of the keys {@code firstKey .. firstKey + keyCount - 1}.
     *
     * @throws IllegalArgumentException when {@code firstKey} is negative, or {@code keyCount} or
     *                                  {@code maxWritesPerKey} is below 1
     */
    public KeyPool(long firstKey, int keyCount, int maxWritesPerKey, KeyDistribution distribution) {
        if (firstKey < 0) {
            throw new IllegalArgumentException(GeneratorMessages.atLeast("firstKey", 0, firstKey));
        }
        if (keyCount < 1) {
            throw new IllegalArgumentException(GeneratorMessages.atLeast("keyCount", 1, keyCount));
        }
        if (maxWritesPerKey < 1) {
            throw new IllegalArgumentException(GeneratorMessages.atLeast("maxWritesPerKey", 1, maxWritesPerKey));
        }
        this.keys = new long[keyCount];
        this.valuesIssued = new long[keyCount];
        this.maxWritesPerKey = maxWritesPerKey;
        this.distribution = Objects.requireNonNull(distribution, "distribution");
        for (int i = 0; i < keyCount; i++) {
            keys[i] = firstKey + i;
        }
        this.nextFreshKey = firstKey + keyCount;
    }

    /** Picks a slot as Elle's {@code rand-key} does. */
    public int pickSlot(SplittableRandom random) {
        return distribution.pickSlot(random, keys.length);
    }

    /** The key now in {@code slot}; it changes only when {@link #takeValue} retires it. */
    public long key(int slot) {
        return keys[slot];
    }

    /**
     * The next value to write to the slot's key (1, 2, 3, ..., unique per key); or, when the key
     * has handed out all {@code maxWritesPerKey} values, {@link #RETIRED}: the key is retired, a
     * fresh one takes its slot, and the caller draws the micro-op again without counting it.
     * That is Elle's {@code wr-txns} rule: a key is retired when a write finds it used up, so
     * reads may still pick it until then.
     */
    public long takeValue(int slot) {
        if (valuesIssued[slot] >= maxWritesPerKey) {
            keys[slot] = nextFreshKey++;
            valuesIssued[slot] = 0;
            return RETIRED;
        }
        return ++valuesIssued[slot];
    }
}
