package io.isowatch.gen;

import java.util.Arrays;

/**
 * One key of the simulated store: the list it holds and the next append value to hand out.
 *
 * <p>Values are handed out when a transaction is invoked (as Jepsen's generator does), and
 * appended only when the transaction takes effect, so an aborted append leaves a gap and the
 * list's order is the order of effect, not of value. A retired cell stays reachable from the
 * transactions in flight that touch it and is collected after they take effect.
 */
final class KeyCell {

    private static final long[] EMPTY = new long[0];

    private final long key;
    /** Elle numbers the appends of each key 1, 2, 3, ... */
    private long nextValue = 1;
    private long[] elements = EMPTY;
    private int size;

    KeyCell(long key) {
        this.key = key;
    }

    long key() {
        return key;
    }

    /** Appends handed out so far, including those of aborted or unknown transactions. */
    long valuesIssued() {
        return nextValue - 1;
    }

    long issueValue() {
        return nextValue++;
    }

    void append(long value) {
        if (size == elements.length) {
            elements = Arrays.copyOf(elements, Math.max(4, size * 2));
        }
        elements[size++] = value;
    }

    int size() {
        return size;
    }

    /**
     * The element at {@code position} (0 is the first appended). A register keeps its versions
     * in the same list, so this is the value its {@code position + 1}-th write set.
     */
    long element(int position) {
        return elements[java.util.Objects.checkIndex(position, size)];
    }

    /** A copy of the first {@code length} elements: an older version of the list. */
    long[] snapshot(int length) {
        return length == 0 ? EMPTY : Arrays.copyOf(elements, length);
    }

    /** A fresh copy of the list; the empty list is one shared, never-written array. */
    long[] snapshot() {
        return size == 0 ? EMPTY : Arrays.copyOf(elements, size);
    }
}
