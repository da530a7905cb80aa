package io.isowatch.collect;

/**
 * Byte records appended one after another to pages, each behind its length (an unsigned
 * varint), and addressed by the long position {@link #append} returns. A record costs its bytes
 * and one or two more: no array header, no padding, no slack beyond the last page. Records are
 * never changed or removed. Not thread-safe.
 */
public final class ByteRecords {

    private final BytePages pages = new BytePages((byte) 0);
    private long end;

    /** Appends the first {@code length} bytes of {@code bytes}; returns the record's position. */
    public long append(byte[] bytes, int length) {
        long at = end;
        pages.ensure(end + varintLength(length) + length - 1);
        for (int n = length; ; n >>>= 7) {
            if ((n & ~0x7F) == 0) {
                pages.set(end++, (byte) n);
                break;
            }
            pages.set(end++, (byte) ((n & 0x7F) | 0x80));
        }
        pages.set(end, bytes, length);
        end += length;
        return at;
    }

    /** A copy of the record at {@code at}. */
    public byte[] read(long at) {
        int length = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = pages.get(at++);
            length |= (b & 0x7F) << shift;
            if (b >= 0) {
                break;
            }
        }
        byte[] record = new byte[length];
        pages.get(at, record, length);
        return record;
    }

    private static int varintLength(int n) {
        int bytes = 1;
        while ((n & ~0x7F) != 0) {
            n >>>= 7;
            bytes++;
        }
        return bytes;
    }
}
