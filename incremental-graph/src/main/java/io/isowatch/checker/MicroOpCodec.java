package io.isowatch.checker;

import io.isowatch.history.MicroOp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The compact byte encoding of a transaction's micro-ops that {@link TxnTable} keeps: a tag byte
 * per micro-op, then its key, value or length as zigzag varints (keys and values of real
 * histories are small numbers, one to three bytes instead of eight). A read whose result is a
 * prefix of its key's version order is stored as its length only and rebuilt from the order on
 * demand. Reuses one buffer for writing and one position for reading: one caller at a time.
 */
final class MicroOpCodec {

    private static final byte TAG_APPEND = 0;
    private static final byte TAG_WRITE = 1;
    private static final byte TAG_READ_NIL = 2;
    private static final byte TAG_READ_PREFIX = 3;
    private static final byte TAG_READ_INLINE = 4;

    /** Where {@link #encode} writes; valid until the next call. */
    private byte[] scratch = new byte[256];
    private int written;
    /** Where the encoding being read continues ({@link #readLong}). */
    private int at;

    /** The bytes the last {@link #encode} wrote: the first {@link #length()} of this array. */
    byte[] buffer() {
        return scratch;
    }

    int length() {
        return written;
    }

    /**
     * Encodes {@code value} into {@link #buffer()}. {@code prefixRead[i]} (null: none) says
     * whether micro-op {@code i} is a read whose result is a prefix of its key's order.
     */
    void encode(List<MicroOp> value, boolean[] prefixRead) {
        written = 0;
        for (int i = 0; i < value.size(); i++) {
            MicroOp op = value.get(i);
            if (op instanceof MicroOp.Append a) {
                writeTag(TAG_APPEND, a.key());
                writeLong(a.value());
            } else if (op instanceof MicroOp.Write w) {
                writeTag(TAG_WRITE, w.key());
                writeLong(w.value());
            } else {
                MicroOp.Read r = (MicroOp.Read) op;
                if (!r.known()) {
                    writeTag(TAG_READ_NIL, r.key());
                } else if (prefixRead != null && prefixRead[i]) {
                    writeTag(TAG_READ_PREFIX, r.key());
                    writeLong(r.length());
                } else {
                    writeTag(TAG_READ_INLINE, r.key());
                    long[] values = r.values();
                    writeLong(values.length);
                    for (long v : values) {
                        writeLong(v);
                    }
                }
            }
        }
    }

    /** The micro-ops encoded in {@code m}, prefix reads rebuilt from {@code prefixes}. */
    List<MicroOp> decode(byte[] m, TxnTable.PrefixSource prefixes) {
        List<MicroOp> out = new ArrayList<>();
        at = 0;
        while (at < m.length) {
            byte tag = m[at++];
            long key = readLong(m);
            if (tag == TAG_APPEND) {
                out.add(new MicroOp.Append(key, readLong(m)));
            } else if (tag == TAG_WRITE) {
                out.add(new MicroOp.Write(key, readLong(m)));
            } else if (tag == TAG_READ_NIL) {
                out.add(new MicroOp.Read(key, null));
            } else if (tag == TAG_READ_PREFIX) {
                out.add(new MicroOp.Read(key, prefixes.prefix(key, (int) readLong(m))));
            } else {
                long[] values = new long[(int) readLong(m)];
                for (int v = 0; v < values.length; v++) {
                    values[v] = readLong(m);
                }
                out.add(new MicroOp.Read(key, values));
            }
        }
        return out;
    }

    private void writeTag(byte tag, long key) {
        room(1);
        scratch[written++] = tag;
        writeLong(key);
    }

    /** Appends {@code v} zigzag-encoded as a varint: 7 bits a byte, low bits first, at most 10 bytes. */
    private void writeLong(long v) {
        room(10);
        long z = (v << 1) ^ (v >> 63);
        while ((z & ~0x7FL) != 0) {
            scratch[written++] = (byte) ((z & 0x7F) | 0x80);
            z >>>= 7;
        }
        scratch[written++] = (byte) z;
    }

    private void room(int bytes) {
        if (written + bytes > scratch.length) {
            scratch = Arrays.copyOf(scratch, Math.max(scratch.length * 2, written + bytes));
        }
    }

    /** Reads the varint at {@link #at} in {@code m} and moves past it. */
    private long readLong(byte[] m) {
        long z = 0;
        int shift = 0;
        byte b;
        do {
            b = m[at++];
            z |= (long) (b & 0x7F) << shift;
            shift += 7;
        } while (b < 0);
        return (z >>> 1) ^ -(z & 1);
    }
}
