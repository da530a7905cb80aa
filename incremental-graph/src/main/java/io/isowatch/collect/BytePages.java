package io.isowatch.collect;

import java.util.Arrays;

/**
 * The byte counterpart of {@link IntPages}: slots that grow by whole pages, indexed by a long
 * (an arena of encoded records may outgrow an int's range). Not thread-safe.
 */
public final class BytePages {

    static final int SHIFT = IntPages.SHIFT;
    static final int PAGE = IntPages.PAGE;
    static final int MASK = IntPages.MASK;

    private final byte fill;
    private byte[][] pages = new byte[8][];
    private long capacity;

    /** New pages hold {@code fill} in every slot. */
    public BytePages(byte fill) {
        this.fill = fill;
    }

    public byte get(long i) {
        return pages[(int) (i >>> SHIFT)][(int) i & MASK];
    }

    public void set(long i, byte value) {
        pages[(int) (i >>> SHIFT)][(int) i & MASK] = value;
    }

    /** Copies {@code length} bytes from {@code from} on into {@code into} from 0. */
    public void get(long from, byte[] into, int length) {
        for (int done = 0; done < length; ) {
            long i = from + done;
            int n = Math.min(length - done, PAGE - ((int) i & MASK));
            System.arraycopy(pages[(int) (i >>> SHIFT)], (int) i & MASK, into, done, n);
            done += n;
        }
    }

    /** Copies {@code length} bytes of {@code bytes} to slots {@code at..}; they must exist. */
    public void set(long at, byte[] bytes, int length) {
        for (int done = 0; done < length; ) {
            long i = at + done;
            int n = Math.min(length - done, PAGE - ((int) i & MASK));
            System.arraycopy(bytes, done, pages[(int) (i >>> SHIFT)], (int) i & MASK, n);
            done += n;
        }
    }

    /**
     * Reads {@code count} unsigned varints (7 bits a byte, low first) from {@code at} on into
     * {@code into} from {@code offset}; returns the position after them. Reads straight out of
     * the page when they cannot cross its end.
     */
    public long getVarints(long at, int count, int[] into, int offset) {
        int off = (int) at & MASK;
        if (off + 5L * count <= PAGE) {
            byte[] page = pages[(int) (at >>> SHIFT)];
            int start = off;
            for (int i = 0; i < count; i++) {
                int b = page[off++];
                int n = b & 0x7F;
                for (int shift = 7; b < 0; shift += 7) {
                    b = page[off++];
                    n |= (b & 0x7F) << shift;
                }
                into[offset + i] = n;
            }
            return at + (off - start);
        }
        for (int i = 0; i < count; i++) {
            int b = get(at++);
            int n = b & 0x7F;
            for (int shift = 7; b < 0; shift += 7) {
                b = get(at++);
                n |= (b & 0x7F) << shift;
            }
            into[offset + i] = n;
        }
        return at;
    }

    /**
     * Keeps slots {@code 0..size-1}, drops the pages past the last one they need and refills the
     * rest of that page, so the slots after {@code size} hold the fill when they are ensured again.
     */
    public void truncate(long size) {
        if (size < 0 || size > capacity) {
            throw new IllegalArgumentException("cannot keep " + size + " slots when " + capacity + " exist");
        }
        int keptPages = (int) ((size + MASK) >>> SHIFT);
        pages = Arrays.copyOf(pages, Math.max(8, keptPages));
        capacity = (long) keptPages << SHIFT;
        if (size < capacity) {
            Arrays.fill(pages[keptPages - 1], (int) size & MASK, PAGE, fill);
        }
    }

    /** Slots {@code 0..i} exist afterwards. */
    public void ensure(long i) {
        while (i >= capacity) {
            int page = (int) (capacity >>> SHIFT);
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
