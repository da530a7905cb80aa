package io.isowatch.collect;

import java.util.Arrays;

/** A growable list of longs with no boxing. Not thread-safe. */
public final class LongList {

    private long[] items;
    private int size;

    public LongList() {
        this(4);
    }

    public LongList(int capacity) {
        items = new long[Math.max(1, capacity)];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public long get(int i) {
        if (i >= size) {
            throw new IndexOutOfBoundsException("index " + i + " of LongList of size " + size);
        }
        return items[i];
    }

    public long last() {
        return get(size - 1);
    }

    public void add(long value) {
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
        }
        items[size++] = value;
    }

    /** A copy of the first {@code n} elements. */
    public long[] prefix(int n) {
        if (n > size) {
            throw new IndexOutOfBoundsException("prefix of " + n + " from LongList of size " + size);
        }
        return Arrays.copyOf(items, n);
    }

    public long[] toArray() {
        return Arrays.copyOf(items, size);
    }

    @Override
    public String toString() {
        return Arrays.toString(toArray());
    }
}
