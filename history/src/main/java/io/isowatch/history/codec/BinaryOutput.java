package io.isowatch.history.codec;

import java.nio.ByteBuffer;

/**
 * Writes bytes, big-endian integers and LEB128 varints into either a byte array or a
 * {@link ByteBuffer}, so the codec writes straight into the caller's memory. The caller checks
 * capacity up front (the codec computes the exact size first), so no method here checks bounds
 * beyond what the JVM does. Not thread-safe; reused per codec.
 */
final class BinaryOutput {

    private byte[] array;
    private ByteBuffer buffer;
    private int position;

    BinaryOutput wrap(byte[] target, int offset) {
        this.array = target;
        this.buffer = null;
        this.position = offset;
        return this;
    }

    BinaryOutput wrap(ByteBuffer target) {
        if (target.hasArray() && !target.isReadOnly()) {
            this.array = target.array();
            this.buffer = null;
            this.position = target.arrayOffset() + target.position();
        } else {
            this.array = null;
            this.buffer = target;
            this.position = target.position();
        }
        return this;
    }

    /** Drops the references to the caller's memory. */
    void release() {
        array = null;
        buffer = null;
    }

    /** The absolute position in the wrapped array or buffer. */
    int position() {
        return position;
    }

    void put(int b) {
        if (array != null) {
            array[position++] = (byte) b;
        } else {
            buffer.put(position++, (byte) b);
        }
    }

    void putInt(int v) {
        put(v >>> 24);
        put(v >>> 16);
        put(v >>> 8);
        put(v);
    }

    void putBytes(byte[] bytes) {
        if (array != null) {
            System.arraycopy(bytes, 0, array, position, bytes.length);
        } else {
            buffer.put(position, bytes);
        }
        position += bytes.length;
    }

    /** Unsigned LEB128: seven bits per byte, low groups first, high bit set on all but the last. */
    void putUVarint(long v) {
        while ((v & ~0x7FL) != 0) {
            put((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        put((int) v);
    }

    void putZigZag(long v) {
        putUVarint(zigZag(v));
    }

    static long zigZag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    static long unZigZag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    static int uvarintSize(long v) {
        // 1 byte per started group of 7 significant bits; 0 needs one byte.
        int bits = 64 - Long.numberOfLeadingZeros(v | 1);
        return (bits + 6) / 7;
    }

    static int zigZagSize(long v) {
        return uvarintSize(zigZag(v));
    }
}
