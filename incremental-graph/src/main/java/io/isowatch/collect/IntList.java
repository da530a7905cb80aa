package io.isowatch.collect;

import java.util.Arrays;

/** A growable list of ints with no boxing. Not thread-safe. */
public final class IntList {

    private int[] items;
    private int size;

    public IntList() {
        this(4);
    }

    public IntList(int capacity) {
        items = new int[Math.max(1, capacity)];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int get(int i) {
        if (i >= size) {
            throw new IndexOutOfBoundsException("index " + i + " of IntList of size " + size);
        }
        return items[i];
    }

    public void set(int i, int value) {
        if (i >= size) {
            throw new IndexOutOfBoundsException("index " + i + " of IntList of size " + size);
        }
        items[i] = value;
    }

    public void add(int value) {
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
        }
        items[size++] = value;
    }

    /** Removes the element at {@code i} by moving the last element into its place. */
    public void swapRemove(int i) {
        items[i] = items[--size];
    }

    public boolean contains(int value) {
        for (int i = 0; i < size; i++) {
            if (items[i] == value) {
                return true;
            }
        }
        return false;
    }

    public void clear() {
        size = 0;
    }

    public int[] toArray() {
        return Arrays.copyOf(items, size);
    }

    @Override
    public String toString() {
        return Arrays.toString(toArray());
    }
}
