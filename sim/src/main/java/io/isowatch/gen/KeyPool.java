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
 *
 * <p><b>Keys shared by a fleet.</b> Agents recording one history against one database must
 * write the same keys at the same time, or no anomaly between them can show; each retiring keys
 * by its own count would soon leave them on different ones. A pool made {@link #sharedByTime}
 * instead holds, in generation {@code g}, the keys {@code firstKey + slot + keyCount × g} of
 * every agent at once, and moves to the next generation when the caller's clock does
 * ({@link #advanceTo}); writes per key are then bounded by the generation's length, not counted.
 */
public final class KeyPool {

    /** What {@link #takeValue} returns when it retires the key instead; never a value. */
    public static final long RETIRED = -1;

    private final long[] keys;
    private final long[] valuesIssued;
    private final int maxWritesPerKey;
    private final KeyDistribution distribution;
    private long nextFreshKey;
    /** What {@link #advanceTo} returns when no key leaves: asked before every transaction, so never allocated. */
    private static final long[] NONE_LEFT = new long[0];

    private final long firstKey;
    /** Whether this pool's keys follow generations of time ({@link #sharedByTime}). */
    private boolean shared;
    /** The generation of a pool shared by time; -1 before its first. */
    private long generation = -1;

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
        this.firstKey = firstKey;
    }

    /**
     * A pool shared by the agents of one history: the keys of {@code generation}, as every other
     * agent's pool computes them for the same generation (see the class comment).
     */
    public static KeyPool sharedByTime(long firstKey, int keyCount, KeyDistribution distribution, long generation) {
        KeyPool pool = new KeyPool(firstKey, keyCount, Integer.MAX_VALUE, distribution);
        pool.shared = true;
        pool.advanceTo(Math.max(0, generation));
        return pool;
    }

    /**
     * Moves a pool shared by time to {@code generation} if it is later, and returns the keys that
     * left their slots (empty when the generation has not changed).
     *
     * @throws IllegalStateException on a pool that retires keys by count
     */
    public long[] advanceTo(long generation) {
        if (!shared) {
            throw new IllegalStateException("a pool that retires keys by count does not follow generations");
        }
        if (generation <= this.generation) {
            return NONE_LEFT;
        }
        long[] left = this.generation < 0 ? NONE_LEFT : keys.clone();
        for (int slot = 0; slot < keys.length; slot++) {
            keys[slot] = Math.addExact(firstKey + slot, Math.multiplyExact((long) keys.length, generation));
            valuesIssued[slot] = 0;
        }
        this.generation = generation;
        return left;
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
        if (shared) {
            return ++valuesIssued[slot]; // a shared pool's keys leave with their generation
        }
        if (valuesIssued[slot] >= maxWritesPerKey) {
            keys[slot] = nextFreshKey++;
            valuesIssued[slot] = 0;
            return RETIRED;
        }
        return ++valuesIssued[slot];
    }
}
