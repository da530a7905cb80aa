package io.isowatch.collect;

import java.util.Arrays;

/**
 * Many small lists of non-negative ints in one shared int array, each list addressed by an int
 * <em>head</em> that its owner keeps (typically in a column indexed by whatever owns the list).
 *
 * <p>Holding a list costs its owner one head int and no object: {@link #EMPTY} is the empty list,
 * a negative head is a list of one element held in the head itself ({@code ~element}), and a
 * positive head is the address of a block {@code [size, element...]} in the arena whose capacity
 * follows from the size (the next power of two, at least 2). Lists of zero or one element, the
 * commonest by far in a version trace, therefore take no arena space. A block that fills up moves
 * to one of twice the capacity (amortised O(1) per add); a block left is kept on a free list per
 * capacity and reused by the next list that needs that capacity, so the arena holds little
 * besides live elements. Elements keep their insertion order; {@link #removeLast} keeps the order
 * of the rest.
 *
 * <p>Methods that change a list return its new head, which replaces the old one: the old head is
 * then invalid. Elements must be non-negative (the single-element encoding needs the sign bit).
 * Not thread-safe.
 */
public final class IntListPool {

    /** The head of an empty list. */
    public static final int EMPTY = 0;

    private static final int FIRST_ARENA = 16;
    private static final int LARGEST_ARENA = Integer.MAX_VALUE - 8;

    /** Blocks start at 1, so that no block's address is {@link #EMPTY}. */
    private int[] arena;
    private int top = 1;
    /** Per capacity class, the first free block, whose size slot links to the next (0 ends). */
    private int[] freeBlocks = new int[0];

    public int size(int head) {
        if (head == EMPTY) {
            return 0;
        }
        return head < 0 ? 1 : arena[head];
    }

    /** The element at {@code i}, in insertion order. O(1). */
    public int get(int head, int i) {
        int size = size(head);
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("index " + i + " of a pooled int list of size " + size);
        }
        return head < 0 ? ~head : arena[head + 1 + i];
    }

    /** O(size). */
    public boolean contains(int head, int value) {
        if (head <= EMPTY) {
            return head != EMPTY && ~head == value;
        }
        return lastIndexOf(head, value) >= 0;
    }

    /** Appends {@code value}; returns the list's new head. Amortised O(1). */
    public int add(int head, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("an IntListPool holds non-negative ints only, not " + value);
        }
        if (head == EMPTY) {
            return ~value;
        }
        if (head < 0) {
            int block = allocate(0);
            arena[block] = 2;
            arena[block + 1] = ~head;
            arena[block + 2] = value;
            return block;
        }
        int size = arena[head];
        int block = head;
        if (size == capacity(classOf(size))) {
            block = move(head, size, classOf(size + 1));
        }
        arena[block] = size + 1;
        arena[block + 1 + size] = value;
        return block;
    }

    /**
     * Removes the last occurrence of {@code value}, if any, moving the elements after it one
     * place forward; returns the list's new head. O(size).
     */
    public int removeLast(int head, int value) {
        if (head <= EMPTY) {
            return head != EMPTY && ~head == value ? EMPTY : head;
        }
        int i = lastIndexOf(head, value);
        if (i < 0) {
            return head;
        }
        int size = arena[head];
        System.arraycopy(arena, head + 2 + i, arena, head + 1 + i, size - 1 - i);
        int left = size - 1;
        if (left == 1) {
            int only = arena[head + 1];
            free(head, classOf(size));
            return ~only;
        }
        int block = classOf(left) < classOf(size) ? move(head, left, classOf(left)) : head;
        arena[block] = left;
        return block;
    }

    private int lastIndexOf(int block, int value) {
        for (int i = arena[block] - 1; i >= 0; i--) {
            if (arena[block + 1 + i] == value) {
                return i;
            }
        }
        return -1;
    }

    /** The capacity class of a block holding {@code size} (at least 2) elements. */
    private static int classOf(int size) {
        return 31 - Integer.numberOfLeadingZeros(size - 1);
    }

    private static int capacity(int sizeClass) {
        return 2 << sizeClass;
    }

    /** Copies the first {@code count} elements of {@code block} to a new block of {@code sizeClass}. */
    private int move(int block, int count, int sizeClass) {
        int moved = allocate(sizeClass);
        System.arraycopy(arena, block + 1, arena, moved + 1, count);
        free(block, classOf(arena[block]));
        return moved;
    }

    private int allocate(int sizeClass) {
        if (sizeClass < freeBlocks.length && freeBlocks[sizeClass] != 0) {
            int block = freeBlocks[sizeClass];
            freeBlocks[sizeClass] = arena[block];
            return block;
        }
        int length = 1 + capacity(sizeClass);
        if (arena == null || top + length > arena.length) {
            growArena(length);
        }
        int block = top;
        top += length;
        return block;
    }

    private void free(int block, int sizeClass) {
        if (sizeClass >= freeBlocks.length) {
            freeBlocks = Arrays.copyOf(freeBlocks, sizeClass + 1);
        }
        arena[block] = freeBlocks[sizeClass];
        freeBlocks[sizeClass] = block;
    }

    private void growArena(int length) {
        long needed = (long) top + length;
        if (needed > LARGEST_ARENA) {
            throw new IllegalStateException("an IntListPool cannot hold more than " + LARGEST_ARENA
                    + " ints; spread the lists over more pools");
        }
        int current = arena == null ? 0 : arena.length;
        // By half, not doubling: an arena is mostly full, and less of it then lies unused.
        int grown = (int) Math.min(LARGEST_ARENA, Math.max(needed, Math.max(FIRST_ARENA, current + (current >> 1))));
        arena = arena == null ? new int[grown] : Arrays.copyOf(arena, grown);
    }
}
