package io.isowatch.gen;

import java.util.Arrays;

/**
 * One key of the simulated store: the list it holds.
 *
 * <p>Values are handed out by the {@link KeyPool} when a transaction is invoked, and appended
 * only when the transaction takes effect, so an aborted append leaves a gap and the list's order
 * is the order of effect, not of value. A retired key's cell stays reachable from the
 * transactions in flight that touch it and is collected after they take effect (with closing
 * reads, after its closing read takes effect).
 */
final class KeyCell {

    private static final long[] EMPTY = new long[0];

    private final long key;
    private long[] elements = EMPTY;
    private int size;

    /** Closing reads: write micro-ops of transactions invoked and not yet completed. */
    int writers;
    /** Closing reads: some transaction was invoked with a write to this key. */
    boolean written;
    /** Closing reads: the key is retired (or the history is ending) and gets its closing read once writers is 0. */
    boolean closing;

    KeyCell(long key) {
        this.key = key;
    }

    long key() {
        return key;
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
