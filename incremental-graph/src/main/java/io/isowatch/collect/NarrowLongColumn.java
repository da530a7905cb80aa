package io.isowatch.collect;

import java.util.Arrays;

/**
 * A column of longs indexed from 0, kept as ints while every value stored fits in one: process
 * ids and history indices of real histories do, and a table of millions of transactions then
 * costs four bytes per value instead of eight. The first value that does not fit widens the
 * whole column to longs, once. Not thread-safe.
 */
public final class NarrowLongColumn {

    private int[] narrow;
    private long[] wide;

    public NarrowLongColumn(int capacity) {
        narrow = new int[capacity];
    }

    public int capacity() {
        return wide != null ? wide.length : narrow.length;
    }

    /** Grows to {@code capacity} slots (0 in the new ones); never shrinks. */
    public void grow(int capacity) {
        if (capacity <= capacity()) {
            return;
        }
        if (wide != null) {
            wide = Arrays.copyOf(wide, capacity);
        } else {
            narrow = Arrays.copyOf(narrow, capacity);
        }
    }

    public long get(int i) {
        return wide != null ? wide[i] : narrow[i];
    }

    public void set(int i, long value) {
        if (wide == null) {
            if ((int) value == value) {
                narrow[i] = (int) value;
                return;
            }
            widen();
        }
        wide[i] = value;
    }

    /**
     * Moves the values at {@code from .. from + count - 1} to {@code 0 .. count - 1} in a column
     * of {@code capacity} slots (at least {@code count}), dropping the others: the column of a
     * table that forgot its first {@code from} rows.
     */
    public void keepRange(int from, int count, int capacity) {
        if (count > capacity) {
            throw new IllegalArgumentException("keeping " + count + " values in " + capacity + " slots");
        }
        if (wide != null) {
            wide = Arrays.copyOfRange(wide, from, from + capacity);
        } else {
            narrow = Arrays.copyOfRange(narrow, from, from + capacity);
        }
    }

    /** Whether the column has had to keep longs. */
    public boolean isWide() {
        return wide != null;
    }

    private void widen() {
        wide = new long[narrow.length];
        for (int i = 0; i < narrow.length; i++) {
            wide[i] = narrow[i];
        }
        narrow = null;
    }
}
