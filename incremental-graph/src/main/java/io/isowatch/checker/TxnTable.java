package io.isowatch.checker;

import io.isowatch.anomaly.Txn;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every transaction the checker has seen, in primitive arrays indexed by transaction id.
 *
 * <p>Ids are dense and given at invocation. Micro-ops are kept in a compact long encoding: a read
 * whose result is a prefix of its key's version order is stored as its length only and rebuilt
 * from the order on demand, so a million transactions cost tens of megabytes rather than
 * hundreds. The full op of a transaction is rebuilt only to explain a finding.
 */
final class TxnTable {

    /** Status of a transaction: invoked but not complete. */
    static final byte PENDING = 0;
    static final byte OK = 1;
    static final byte INFO = 2;
    static final byte FAIL = 3;

    private static final long TAG_APPEND = 0;
    private static final long TAG_WRITE = 1;
    private static final long TAG_READ_NIL = 2;
    private static final long TAG_READ_PREFIX = 3;
    private static final long TAG_READ_INLINE = 4;

    /** Rebuilds a read stored as a prefix of its key's version order. */
    interface PrefixSource {
        long[] prefix(long key, int length);
    }

    private int size;
    private byte[] status = new byte[1024];
    private long[] process = new long[1024];
    private long[] invokeIndex = new long[1024];
    private long[] invokeTime = new long[1024];
    private long[] completeIndex = new long[1024];
    private long[] completeTime = new long[1024];
    private long[][] mops = new long[1024][];

    int size() {
        return size;
    }

    /** Registers an invocation; returns the new transaction id. */
    int invoke(Op invoke) {
        if (size == status.length) {
            int cap = size + (size >> 1); // 1.5x: less slack than doubling in tables of millions
            status = Arrays.copyOf(status, cap);
            process = Arrays.copyOf(process, cap);
            invokeIndex = Arrays.copyOf(invokeIndex, cap);
            invokeTime = Arrays.copyOf(invokeTime, cap);
            completeIndex = Arrays.copyOf(completeIndex, cap);
            completeTime = Arrays.copyOf(completeTime, cap);
            mops = Arrays.copyOf(mops, cap);
        }
        int id = size++;
        status[id] = PENDING;
        process[id] = invoke.process();
        invokeIndex[id] = invoke.index();
        invokeTime[id] = invoke.time();
        completeIndex[id] = -1;
        completeTime[id] = -1;
        mops[id] = encode(invoke.value(), null);
        return id;
    }

    /** Records a completion's outcome, index and time; its micro-ops follow with {@link #storeMicroOps}. */
    void complete(int id, Op completion) {
        status[id] = statusOf(completion.type());
        completeIndex[id] = completion.index();
        completeTime[id] = completion.time();
    }

    /**
     * Stores a completed transaction's micro-ops. {@code prefixRead[i]} says whether micro-op
     * {@code i} is a read whose result is a prefix of its key's order (then only its length is
     * kept).
     */
    void storeMicroOps(int id, List<MicroOp> value, boolean[] prefixRead) {
        mops[id] = encode(value, prefixRead);
    }

    /**
     * Whether {@code completion} lists the same writes (appends and register writes: kind, key
     * and value, in order) as the invocation of pending transaction {@code id}. Call before
     * {@link #storeMicroOps} replaces the invocation's micro-ops. Allocates nothing.
     */
    boolean sameWrites(int id, List<MicroOp> completion) {
        long[] m = mops[id];
        int i = nextWrite(m, 0);
        for (int j = 0; j < completion.size(); j++) {
            MicroOp op = completion.get(j);
            long tag;
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
            if (i >= m.length || m[i] != tag || m[i + 1] != op.key() || m[i + 2] != value) {
                return false;
            }
            i = nextWrite(m, i + 3);
        }
        return i >= m.length;
    }

    /** The position of the first write at or after {@code i} in an encoding, or its length. */
    private static int nextWrite(long[] m, int i) {
        while (i < m.length && m[i] != TAG_APPEND && m[i] != TAG_WRITE) {
            i += m[i] == TAG_READ_NIL ? 2 : m[i] == TAG_READ_INLINE ? 3 + (int) m[i + 2] : 3;
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
        return process[id];
    }

    long invokeIndex(int id) {
        return invokeIndex[id];
    }

    long invokeTime(int id) {
        return invokeTime[id];
    }

    long completeIndex(int id) {
        return completeIndex[id];
    }

    long completeTime(int id) {
        return completeTime[id];
    }

    /** The micro-ops of a transaction (its completion's, or its invocation's while pending). */
    List<MicroOp> microOps(int id, PrefixSource prefixes) {
        long[] m = mops[id];
        List<MicroOp> out = new ArrayList<>();
        int i = 0;
        while (i < m.length) {
            long tag = m[i];
            long key = m[i + 1];
            if (tag == TAG_APPEND) {
                out.add(new MicroOp.Append(key, m[i + 2]));
                i += 3;
            } else if (tag == TAG_WRITE) {
                out.add(new MicroOp.Write(key, m[i + 2]));
                i += 3;
            } else if (tag == TAG_READ_NIL) {
                out.add(new MicroOp.Read(key, null));
                i += 2;
            } else if (tag == TAG_READ_PREFIX) {
                out.add(new MicroOp.Read(key, prefixes.prefix(key, (int) m[i + 2])));
                i += 3;
            } else {
                int n = (int) m[i + 2];
                out.add(new MicroOp.Read(key, Arrays.copyOfRange(m, i + 3, i + 3 + n)));
                i += 3 + n;
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
        Op completion = new Op(complete ? completeIndex[id] : invokeIndex[id],
                complete ? completeTime[id] : invokeTime[id], type, process[id], microOps(id, prefixes));
        return new Txn(id, invokeIndex[id], invokeTime[id], completion);
    }

    private static long[] encode(List<MicroOp> value, boolean[] prefixRead) {
        int n = 0;
        for (int i = 0; i < value.size(); i++) {
            MicroOp op = value.get(i);
            if (op instanceof MicroOp.Read r) {
                n += !r.known() ? 2 : (prefixRead != null && prefixRead[i]) ? 3 : 3 + r.length();
            } else {
                n += 3;
            }
        }
        long[] out = new long[n];
        int p = 0;
        for (int i = 0; i < value.size(); i++) {
            MicroOp op = value.get(i);
            out[p + 1] = op.key();
            if (op instanceof MicroOp.Append a) {
                out[p] = TAG_APPEND;
                out[p + 2] = a.value();
                p += 3;
            } else if (op instanceof MicroOp.Write w) {
                out[p] = TAG_WRITE;
                out[p + 2] = w.value();
                p += 3;
            } else {
                MicroOp.Read r = (MicroOp.Read) op;
                if (!r.known()) {
                    out[p] = TAG_READ_NIL;
                    p += 2;
                } else if (prefixRead != null && prefixRead[i]) {
                    out[p] = TAG_READ_PREFIX;
                    out[p + 2] = r.length();
                    p += 3;
                } else {
                    out[p] = TAG_READ_INLINE;
                    out[p + 2] = r.length();
                    System.arraycopy(r.values(), 0, out, p + 3, r.length());
                    p += 3 + r.length();
                }
            }
        }
        return out;
    }
}
