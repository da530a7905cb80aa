package io.isowatch.collect;

import java.util.Arrays;

/**
 * A map from long to int with no boxing, for the checker's hot paths.
 *
 * <p>Keys that lie close together are kept in a <em>dense window</em>: an int array indexed by
 * {@code key - base}, {@link #MISSING} where absent. Histories number a key's elements and
 * processes consecutively, so a trace's element-to-writer and element-to-position maps are
 * mostly such runs, and the window costs 4 to 16 bytes per entry where a hash table costs 24 to
 * 48 (and a lookup is one array load). The window widens, doubling, while at least a quarter of
 * it stays in use; keys it cannot reach go to an open-addressing hash table (linear probing over
 * power-of-two tables, load factor at most 1/2), which is made only when first needed. A key is
 * in exactly one of the two: widening moves the hash table's keys that the window now covers.
 *
 * <p>{@link #MISSING} is returned for absent keys, so it cannot be stored as a value. Not
 * thread-safe.
 */
public final class LongIntMap {

    /** Returned by {@link #get(long)} for a key that is not present. */
    public static final int MISSING = Integer.MIN_VALUE;

    private static final long EMPTY_KEY = 0L;
    /** The first window's length. */
    private static final int FIRST_WINDOW = 8;
    /** A window may widen only while one slot in this many is in use. */
    private static final int SPARSEST = 4;
    /** The longest window: beyond it keys go to the hash table. */
    private static final int LONGEST_WINDOW = 1 << 30;

    private int[] dense;
    private long base;
    private int denseSize;

    private final int hashCapacity;
    private long[] keys;
    private int[] values;
    private int size;
    private boolean hasZeroKey;
    private int zeroValue = MISSING;

    public LongIntMap() {
        this(8);
    }

    /** @param expected how many keys the hash table should take without growing, should it be needed */
    public LongIntMap(int expected) {
        hashCapacity = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
    }

    public int size() {
        return denseSize + size + (hasZeroKey ? 1 : 0);
    }

    /** The value for {@code key}, or {@link #MISSING}. */
    public int get(long key) {
        int slot = denseSlot(key);
        if (slot >= 0) {
            return dense[slot];
        }
        return hashGet(key);
    }

    public boolean containsKey(long key) {
        return get(key) != MISSING;
    }

    /** Sets {@code key} to {@code value}; returns the previous value or {@link #MISSING}. */
    public int put(long key, int value) {
        if (value == MISSING) {
            throw new IllegalArgumentException("LongIntMap cannot store its MISSING marker " + MISSING);
        }
        if (dense == null) {
            dense = new int[FIRST_WINDOW];
            Arrays.fill(dense, MISSING);
            base = Math.min(key, Long.MAX_VALUE - FIRST_WINDOW + 1); // the window must not pass Long.MAX_VALUE
        }
        int slot = denseSlot(key);
        if (slot < 0 && widenTo(key)) {
            slot = denseSlot(key);
        }
        if (slot < 0) {
            return hashPut(key, value);
        }
        int old = dense[slot];
        dense[slot] = value;
        if (old == MISSING) {
            denseSize++;
        }
        return old;
    }

    /** Calls {@code visitor} for each entry: the window's in key order, then the hash table's in no particular order. */
    public void forEach(Visitor visitor) {
        if (dense != null) {
            for (int i = 0; i < dense.length; i++) {
                if (dense[i] != MISSING) {
                    visitor.visit(base + i, dense[i]);
                }
            }
        }
        if (hasZeroKey) {
            visitor.visit(EMPTY_KEY, zeroValue);
        }
        if (keys != null) {
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] != EMPTY_KEY) {
                    visitor.visit(keys[i], values[i]);
                }
            }
        }
    }

    /** Receives map entries. */
    @FunctionalInterface
    public interface Visitor {
        void visit(long key, int value);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        forEach((k, v) -> sb.append(sb.length() > 1 ? ", " : "").append(k).append('=').append(v));
        return sb.append('}').toString();
    }

    /** Removes every entry, keeping the capacity. */
    public void clear() {
        if (dense != null) {
            Arrays.fill(dense, MISSING);
            denseSize = 0;
        }
        if (keys != null) {
            Arrays.fill(keys, EMPTY_KEY);
        }
        size = 0;
        hasZeroKey = false;
        zeroValue = MISSING;
    }

    // ---- the dense window ----

    /** {@code key}'s index in the window, or -1 outside it (overflow-safe for any key). */
    private int denseSlot(long key) {
        if (dense == null || key < base) {
            return -1;
        }
        long offset = key - base; // negative only if the true difference exceeds Long.MAX_VALUE
        return offset >= 0 && offset < dense.length ? (int) offset : -1;
    }

    /**
     * Widens the window to cover {@code key} if it stays dense enough, moving the hash table's
     * keys it then covers. Returns false, changing nothing, when it would not.
     */
    private boolean widenTo(long key) {
        if (dense.length >= LONGEST_WINDOW) {
            return false;
        }
        long lo = Math.min(base, key);
        long hi = Math.max(base + dense.length - 1, key);
        if (hi - lo < 0 || hi - lo >= LONGEST_WINDOW) {
            return false; // the span overflows or is too long
        }
        int length = Math.max(dense.length * 2, Integer.highestOneBit((int) (hi - lo)) << 1);
        if ((long) (denseSize + 1) * SPARSEST < length || lo > Long.MAX_VALUE - length) {
            return false;
        }
        int[] wider = new int[length];
        Arrays.fill(wider, MISSING);
        System.arraycopy(dense, 0, wider, (int) (base - lo), dense.length);
        dense = wider;
        base = lo;
        if (size > 0 || hasZeroKey) {
            moveCoveredHashKeys();
        }
        return true;
    }

    /** Moves the hash table's keys that the window covers into it, rebuilding the table from the rest. */
    private void moveCoveredHashKeys() {
        if (hasZeroKey && denseSlot(EMPTY_KEY) >= 0) {
            dense[denseSlot(EMPTY_KEY)] = zeroValue;
            denseSize++;
            hasZeroKey = false;
            zeroValue = MISSING;
        }
        if (keys == null || size == 0) {
            return;
        }
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length];
        values = new int[oldKeys.length];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            long k = oldKeys[i];
            if (k == EMPTY_KEY) {
                continue;
            }
            int slot = denseSlot(k);
            if (slot >= 0) {
                dense[slot] = oldValues[i];
                denseSize++;
            } else {
                hashPut(k, oldValues[i]);
            }
        }
    }

    // ---- the hash table, for keys outside the window ----

    private int hashGet(long key) {
        if (key == EMPTY_KEY) {
            return hasZeroKey ? zeroValue : MISSING;
        }
        if (keys == null) {
            return MISSING;
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

    private int hashPut(long key, int value) {
        if (key == EMPTY_KEY) {
            int old = hasZeroKey ? zeroValue : MISSING;
            hasZeroKey = true;
            zeroValue = value;
            return old;
        }
        if (keys == null) {
            keys = new long[hashCapacity];
            values = new int[hashCapacity];
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
                    growHash();
                }
                return MISSING;
            }
            i = (i + 1) & mask;
        }
    }

    private void growHash() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY_KEY) {
                hashPut(oldKeys[i], oldValues[i]);
            }
        }
    }

    static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
