package io.isowatch.collect;

import java.util.Arrays;

/** The byte counterpart of {@link IntPages}: slots that grow by whole pages. Not thread-safe. */
public final class BytePages {

    static final int SHIFT = IntPages.SHIFT;
    static final int PAGE = IntPages.PAGE;
    static final int MASK = IntPages.MASK;

    private final byte fill;
    private byte[][] pages = new byte[8][];
    private int capacity;

    /** New pages hold {@code fill} in every slot. */
    public BytePages(byte fill) {
        this.fill = fill;
    }

    public byte get(int i) {
        return pages[i >>> SHIFT][i & MASK];
    }

    public void set(int i, byte value) {
        pages[i >>> SHIFT][i & MASK] = value;
    }

    /** Slots {@code 0..i} exist afterwards. */
    public void ensure(int i) {
        while (i >= capacity) {
            int page = capacity >>> SHIFT;
            if (page == pages.length) {
                pages = Arrays.copyOf(pages, page * 2);
            }
            byte[] fresh = new byte[PAGE];
            if (fill != 0) {
                Arrays.fill(fresh, fill);
            }
            pages[page] = fresh;
            capacity += PAGE;
        }
    }
}
