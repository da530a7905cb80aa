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

    /**
     * Forgets slots {@code 0..cut-1} of the first {@code size}: slot {@code i} then holds what
     * slot {@code i + cut} held, for {@code i < size - cut}, and the fill after that; the pages
     * past the last one needed are dropped. Time proportional to {@code size - cut}.
     */
    public void removeBelow(int cut, int size) {
        if (cut < 0 || cut > size || size > capacity) {
            throw new IllegalArgumentException("cannot remove the slots below " + cut + " of the first " + size
                    + " when " + capacity + " exist");
        }
        int kept = size - cut;
        for (int i = 0; cut > 0 && i < kept; ) {
            int from = i + cut;
            int n = Math.min(kept - i, Math.min(PAGE - (i & MASK), PAGE - (from & MASK)));
            System.arraycopy(pages[from >>> SHIFT], from & MASK, pages[i >>> SHIFT], i & MASK, n);
            i += n;
        }
        truncate(kept);
    }

    /**
     * Keeps slots {@code 0..size-1}, drops the pages past the last one they need and refills the
     * rest of that page, so the slots after {@code size} hold the fill when they are ensured again.
     */
    public void truncate(int size) {
        if (size < 0 || size > capacity) {
            throw new IllegalArgumentException("cannot keep " + size + " slots when " + capacity + " exist");
        }
        int keptPages = (int) (((long) size + MASK) >>> SHIFT);
        pages = Arrays.copyOf(pages, Math.max(8, keptPages));
        capacity = keptPages << SHIFT;
        if (size < capacity) {
            Arrays.fill(pages[keptPages - 1], size & MASK, PAGE, fill);
        }
    }
}
