package io.isowatch.checker;

import io.isowatch.anomaly.Txn;
import io.isowatch.collect.BytePages;
import io.isowatch.collect.NarrowLongColumn;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every transaction the checker has seen, in primitive arrays indexed by transaction id.
 *
 * <p>Ids are dense and given at invocation. Micro-ops are kept in a compact byte encoding: a tag
 * byte per micro-op, then its key, value or length as zigzag varints (keys and values of real
 * histories are small numbers, one to three bytes instead of eight); a read whose result is a
 * prefix of its key's version order is stored as its length only and rebuilt from the order on
 * demand. A completed transaction's encoding is appended to one paged arena, behind its length,
 * so it costs no array header and no padding; only pending transactions (about as many as there
 * are clients) keep theirs in an array of their own, which the completion replaces. A million
 * transactions cost tens of megabytes rather than hundreds. The full op of a transaction is
 * rebuilt only to explain a finding.
 */
final class TxnTable {

    /** Status of a transaction: invoked but not complete. */
    static final byte PENDING = 0;
    static final byte OK = 1;
    static final byte INFO = 2;
    static final byte FAIL = 3;

    private static final byte TAG_APPEND = 0;
    private static final byte TAG_WRITE = 1;
    private static final byte TAG_READ_NIL = 2;
    private static final byte TAG_READ_PREFIX = 3;
    private static final byte TAG_READ_INLINE = 4;

    /** Rebuilds a read stored as a prefix of its key's version order. */
    interface PrefixSource {
        long[] prefix(long key, int length);
    }

    private int size;
    private byte[] status = new byte[1024];
    /** Process ids and indices fit an int in real histories (kept as longs only if one does not). */
    private final NarrowLongColumn process = new NarrowLongColumn(1024);
    private final NarrowLongColumn invokeIndex = new NarrowLongColumn(1024);
    private long[] invokeTime = new long[1024];
    private final NarrowLongColumn completeIndex = new NarrowLongColumn(1024);
    private long[] completeTime = new long[1024];
    /** The invocation's encoded micro-ops while a transaction is pending, then null. */
    private byte[][] pendingMops = new byte[1024][];
    /** Where a completed transaction's encoding starts in {@link #arena}: its length, then it. */
    private final NarrowLongColumn mopsAt = new NarrowLongColumn(1024);
    private final BytePages arena = new BytePages((byte) 0);
    private long arenaEnd;
    /** Where the encoding being read continues ({@link #readLong}); one reader at a time. */
    private int at;
    /** Where {@link #encode} writes before copying out the exact length. */
    private byte[] scratch = new byte[256];
    private int written;

    int size() {
        return size;
    }

    /** Registers an invocation; returns the new transaction id. */
    int invoke(Op invoke) {
        if (size == status.length) {
            int cap = size + (size >> 1); // 1.5x: less slack than doubling in tables of millions
            status = Arrays.copyOf(status, cap);
            process.grow(cap);
            invokeIndex.grow(cap);
            invokeTime = Arrays.copyOf(invokeTime, cap);
            completeIndex.grow(cap);
            completeTime = Arrays.copyOf(completeTime, cap);
            pendingMops = Arrays.copyOf(pendingMops, cap);
            mopsAt.grow(cap);
        }
        int id = size++;
        status[id] = PENDING;
        process.set(id, invoke.process());
        invokeIndex.set(id, invoke.index());
        invokeTime[id] = invoke.time();
        completeIndex.set(id, -1);
        completeTime[id] = -1;
        encode(invoke.value(), null);
        pendingMops[id] = Arrays.copyOf(scratch, written);
        return id;
    }

    /** Records a completion's outcome, index and time; its micro-ops follow with {@link #storeMicroOps}. */
    void complete(int id, Op completion) {
        status[id] = statusOf(completion.type());
        completeIndex.set(id, completion.index());
        completeTime[id] = completion.time();
    }

    /**
     * Stores a completed transaction's micro-ops. {@code prefixRead[i]} says whether micro-op
     * {@code i} is a read whose result is a prefix of its key's order (then only its length is
     * kept).
     */
    void storeMicroOps(int id, List<MicroOp> value, boolean[] prefixRead) {
        encode(value, prefixRead);
        pendingMops[id] = null;
        mopsAt.set(id, arenaEnd);
        int lengthBytes = varintLength(written);
        arena.ensure(arenaEnd + lengthBytes + written - 1);
        for (int n = written; ; n >>>= 7) { // the length, as an unsigned varint
            if ((n & ~0x7F) == 0) {
                arena.set(arenaEnd++, (byte) n);
                break;
            }
            arena.set(arenaEnd++, (byte) ((n & 0x7F) | 0x80));
        }
        arena.set(arenaEnd, scratch, written);
        arenaEnd += written;
    }

    private static int varintLength(int n) {
        int bytes = 1;
        while ((n & ~0x7F) != 0) {
            n >>>= 7;
            bytes++;
        }
        return bytes;
    }

    /** A transaction's encoding: its own array while pending, else a copy out of the arena. */
    private byte[] encoding(int id) {
        byte[] pending = pendingMops[id];
        if (pending != null) {
            return pending;
        }
        long i = mopsAt.get(id);
        int length = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = arena.get(i++);
            length |= (b & 0x7F) << shift;
            if (b >= 0) {
                break;
            }
        }
        byte[] m = new byte[length];
        arena.get(i, m, length);
        return m;
    }

    /**
     * Whether {@code completion} lists the same writes (appends and register writes: kind, key
     * and value, in order) as the invocation of pending transaction {@code id}. Call before
     * {@link #storeMicroOps} replaces the invocation's micro-ops. Allocates nothing.
     */
    boolean sameWrites(int id, List<MicroOp> completion) {
        byte[] m = pendingMops[id];
        int i = nextWrite(m, 0);
        for (int j = 0; j < completion.size(); j++) {
            MicroOp op = completion.get(j);
            byte tag;
            long value;
            if (op instanceof MicroOp.Append a) {
                tag = TAG_APPEND;
                value = a.value();
            } else if (op instanceof MicroOp.Write w) {
                tag = TAG_WRITE;
                value = w.value();
            } else {
                continue;
            }
            if (i >= m.length || m[i] != tag) {
                return false;
            }
            at = i + 1;
            if (readLong(m) != op.key() || readLong(m) != value) {
                return false;
            }
            i = nextWrite(m, at);
        }
        return i >= m.length;
    }

    /** The position of the first write at or after {@code i} in an encoding, or its length. */
    private int nextWrite(byte[] m, int i) {
        while (i < m.length && m[i] != TAG_APPEND && m[i] != TAG_WRITE) {
            byte tag = m[i];
            at = i + 1;
            readLong(m); // the key
            if (tag == TAG_READ_PREFIX) {
                readLong(m);
            } else if (tag == TAG_READ_INLINE) {
                for (long n = readLong(m); n > 0; n--) {
                    readLong(m);
                }
            }
            i = at;
        }
        return i;
    }

    static byte statusOf(OpType type) {
        return switch (type) {
            case OK -> OK;
            case INFO -> INFO;
            case FAIL -> FAIL;
            case INVOKE -> PENDING;
        };
    }

    byte status(int id) {
        return status[id];
    }

    /** True for transactions that may have taken effect: ok or info. */
    boolean possible(int id) {
        byte s = status[id];
        return s == OK || s == INFO;
    }

    long process(int id) {
        return process.get(id);
    }

    long invokeIndex(int id) {
        return invokeIndex.get(id);
    }

    long invokeTime(int id) {
        return invokeTime[id];
    }

    long completeIndex(int id) {
        return completeIndex.get(id);
    }

    long completeTime(int id) {
        return completeTime[id];
    }

    /** The micro-ops of a transaction (its completion's, or its invocation's while pending). */
    List<MicroOp> microOps(int id, PrefixSource prefixes) {
        byte[] m = encoding(id);
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

    /**
     * The transaction as findings show it: its completion rebuilt, or, while it has not completed
     * yet, its invocation.
     */
    Txn txn(int id, PrefixSource prefixes) {
        OpType type = switch (status[id]) {
            case OK -> OpType.OK;
            case FAIL -> OpType.FAIL;
            case INFO -> OpType.INFO;
            default -> OpType.INVOKE;
        };
        boolean complete = type != OpType.INVOKE;
        Op completion = new Op(complete ? completeIndex.get(id) : invokeIndex.get(id),
                complete ? completeTime[id] : invokeTime[id], type, process.get(id), microOps(id, prefixes));
        return new Txn(id, invokeIndex.get(id), invokeTime[id], completion);
    }

    /** Encodes micro-ops into {@link #scratch}, {@link #written} bytes long. */
    private void encode(List<MicroOp> value, boolean[] prefixRead) {
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
