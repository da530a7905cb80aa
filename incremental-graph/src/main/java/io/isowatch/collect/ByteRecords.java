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
    /** Scratch of {@link #appendCopy}. */
    private byte[] scratch = new byte[64];

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
        int length = lengthAt(at);
        byte[] record = new byte[length];
        pages.get(at + varintLength(length), record, length);
        return record;
    }

    /**
     * Appends a copy of {@code source}'s record at {@code at} (its length and bytes moved as
     * they are, with no array per record); returns its position here.
     */
    public long appendCopy(ByteRecords source, long at) {
        int length = source.lengthAt(at);
        int total = varintLength(length) + length;
        if (scratch.length < total) {
            scratch = new byte[Math.max(total, 2 * scratch.length)];
        }
        source.pages.get(at, scratch, total);
        long copy = end;
        pages.ensure(end + total - 1);
        pages.set(end, scratch, total);
        end += total;
        return copy;
    }

    private int lengthAt(long at) {
        int length = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = pages.get(at++);
            length |= (b & 0x7F) << shift;
            if (b >= 0) {
                return length;
            }
        }
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
