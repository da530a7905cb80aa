package io.isowatch.collect;

import java.util.Arrays;

/**
 * An open-addressing hash map from long to int with no boxing, for the checker's hot paths.
 *
 * <p>Linear probing over power-of-two tables, load factor at most 1/2. {@link #MISSING} is
 * returned for absent keys, so it cannot be stored as a value. Not thread-safe.
 */
public final class LongIntMap {

    /** Returned by {@link #get(long)} for a key that is not present. */
    public static final int MISSING = Integer.MIN_VALUE;

    private static final long EMPTY_KEY = 0L;

    private long[] keys;
    private int[] values;
    private int size;
    private boolean hasZeroKey;
    private int zeroValue = MISSING;

    public LongIntMap() {
        this(8);
    }

    public LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
        keys = new long[cap];
        values = new int[cap];
    }

    public int size() {
        return size + (hasZeroKey ? 1 : 0);
    }

    /** The value for {@code key}, or {@link #MISSING}. */
    public int get(long key) {
        if (key == EMPTY_KEY) {
            return hasZeroKey ? zeroValue : MISSING;
        }
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (true) {
            long k = keys[i];
            if (k == key) {
                return values[i];
            }
            if (k == EMPTY_KEY) {
                return MISSING;
            }
            i = (i + 1) & mask;
        }
    }

    public boolean containsKey(long key) {
        return get(key) != MISSING;
    }

    /** Sets {@code key} to {@code value}; returns the previous value or {@link #MISSING}. */
    public int put(long key, int value) {
        if (value == MISSING) {
            throw new IllegalArgumentException("LongIntMap cannot store its MISSING marker " + MISSING);
        }
        if (key == EMPTY_KEY) {
            int old = hasZeroKey ? zeroValue : MISSING;
            hasZeroKey = true;
            zeroValue = value;
            return old;
        }
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (true) {
            long k = keys[i];
            if (k == key) {
                int old = values[i];
                values[i] = value;
                return old;
            }
            if (k == EMPTY_KEY) {
                keys[i] = key;
                values[i] = value;
                if (++size * 2 > keys.length) {
                    grow();
                }
                return MISSING;
            }
            i = (i + 1) & mask;
        }
    }

    /** Calls {@code visitor} for each entry, in no particular order. */
    public void forEach(Visitor visitor) {
        if (hasZeroKey) {
            visitor.visit(EMPTY_KEY, zeroValue);
        }
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != EMPTY_KEY) {
                visitor.visit(keys[i], values[i]);
            }
        }
    }

    /** Receives map entries. */
    @FunctionalInterface
    public interface Visitor {
        void visit(long key, int value);
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY_KEY) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        forEach((k, v) -> sb.append(sb.length() > 1 ? ", " : "").append(k).append('=').append(v));
        return sb.append('}').toString();
    }

    /** Removes every entry, keeping the capacity. */
    public void clear() {
        Arrays.fill(keys, EMPTY_KEY);
        size = 0;
        hasZeroKey = false;
        zeroValue = MISSING;
    }
}
