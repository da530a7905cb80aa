package io.isowatch.collect;

import java.util.Arrays;

/** The long counterpart of {@link IntPages}: slots that grow by whole pages. Not thread-safe. */
public final class LongPages {

    static final int SHIFT = IntPages.SHIFT;
    static final int PAGE = IntPages.PAGE;
    static final int MASK = IntPages.MASK;

    private final long fill;
    private long[][] pages = new long[8][];
    private int capacity;

    /** New pages hold {@code fill} in every slot. */
    public LongPages(long fill) {
        this.fill = fill;
    }

    public long get(int i) {
        return pages[i >>> SHIFT][i & MASK];
    }

    public void set(int i, long value) {
        pages[i >>> SHIFT][i & MASK] = value;
    }

    /** Slots {@code 0..i} exist afterwards. */
    public void ensure(int i) {
        while (i >= capacity) {
            int page = capacity >>> SHIFT;
            if (page == pages.length) {
                pages = Arrays.copyOf(pages, page * 2);
            }
            long[] fresh = new long[PAGE];
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
