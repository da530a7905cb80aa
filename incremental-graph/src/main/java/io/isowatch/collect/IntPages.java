package io.isowatch.collect;

import java.util.Arrays;

/**
 * An int array indexed from 0 that grows by whole pages instead of by copying: growing costs no
 * copy and no transient second array, and at most one page is ever unused. Large tables (edges,
 * transactions) live in these, so their heap is what they hold, not up to twice that as after
 * doubling, and the collector never moves one huge array. Not thread-safe.
 */
public final class IntPages {

    static final int SHIFT = 12;
    static final int PAGE = 1 << SHIFT;
    static final int MASK = PAGE - 1;

    private final int fill;
    private int[][] pages = new int[8][];
    private int capacity;

    /** New pages hold {@code fill} in every slot. */
    public IntPages(int fill) {
        this.fill = fill;
    }

    public int get(int i) {
        return pages[i >>> SHIFT][i & MASK];
    }

    public void set(int i, int value) {
        pages[i >>> SHIFT][i & MASK] = value;
    }

    /** Slots {@code 0..i} exist afterwards. */
    public void ensure(int i) {
        while (i >= capacity) {
            int page = capacity >>> SHIFT;
            if (page == pages.length) {
                pages = Arrays.copyOf(pages, page * 2);
            }
            int[] fresh = new int[PAGE];
            if (fill != 0) {
                Arrays.fill(fresh, fill);
            }
            pages[page] = fresh;
            capacity += PAGE;
        }
    }

    /** How many slots exist. */
    public int capacity() {
        return capacity;
    }
}
