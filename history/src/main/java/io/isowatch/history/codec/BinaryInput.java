package io.isowatch.history.codec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads what {@link BinaryOutput} writes from a byte array range or a {@link ByteBuffer},
 * checking every read against the end of the event so that corrupt input fails with a
 * {@link BinaryFormatException} naming the offset, never with an index error. Not thread-safe.
 */
final class BinaryInput {

    private byte[] array;
    private ByteBuffer buffer;
    private int start;
    private int position;
    private int limit;

    BinaryInput wrap(byte[] source, int offset, int length) {
        if (offset < 0 || length < 0 || offset > source.length - length) {
            throw new IndexOutOfBoundsException("range [" + offset + ", " + offset + "+" + length
                    + ") is outside an array of " + source.length);
        }
        this.array = source;
        this.buffer = null;
        this.start = offset;
        this.position = offset;
        this.limit = offset + length;
        return this;
    }

    BinaryInput wrap(ByteBuffer source) {
        this.array = null;
        this.buffer = source;
        this.start = source.position();
        this.position = start;
        this.limit = source.limit();
        return this;
    }

    void release() {
        array = null;
        buffer = null;
    }

    /** The absolute position in the wrapped array or buffer. */
    int position() {
        return position;
    }

    /** The position relative to the start of the event, for messages. */
    int offset() {
        return position - start;
    }

    int remaining() {
        return limit - position;
    }

    int get() {
        if (position >= limit) {
            throw fail(BinaryMessages.truncated(1, 0));
        }
        return (array != null ? array[position++] : buffer.get(position++)) & 0xff;
    }

    int getInt() {
        require(4);
        return get() << 24 | get() << 16 | get() << 8 | get();
    }

    String getUtf8(int length) {
        require(length);
        String s;
        if (array != null) {
            s = new String(array, position, length, StandardCharsets.UTF_8);
        } else {
            byte[] copy = new byte[length];
            buffer.get(position, copy);
            s = new String(copy, StandardCharsets.UTF_8);
        }
        position += length;
        return s;
    }

    long getUVarint() {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = get();
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw fail(BinaryMessages.varintTooLong());
    }

    long getZigZag() {
        return BinaryOutput.unZigZag(getUVarint());
    }

    /**
     * Reads a count of items each taking at least {@code minBytesEach} bytes, rejecting counts
     * the rest of the event cannot hold (so corrupt input cannot make the reader allocate
     * gigabytes).
     */
    int getCount(String what, int minBytesEach) {
        int at = offset();
        long count = getUVarint();
        if (count < 0 || count > (long) remaining() / minBytesEach) {
            throw new BinaryFormatException(at, BinaryMessages.countTooLarge(what, count, remaining()));
        }
        return (int) count;
    }

    private void require(int n) {
        if (remaining() < n) {
            throw fail(BinaryMessages.truncated(n, remaining()));
        }
    }

    BinaryFormatException fail(String message) {
        return new BinaryFormatException(offset(), message);
    }
}
