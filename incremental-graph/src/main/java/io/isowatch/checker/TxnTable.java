package io.isowatch.checker;

import io.isowatch.anomaly.Txn;
import io.isowatch.collect.ByteRecords;
import io.isowatch.collect.NarrowLongColumn;
import io.isowatch.collect.Slots;
import io.isowatch.history.MicroOp;
import io.isowatch.history.MicroOpList;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.Arrays;
import java.util.List;

/**
 * Every transaction the checker has seen, in primitive arrays indexed by transaction id.
 *
 * <p>Ids are dense and given at invocation. A completed transaction's micro-ops are kept in
 * {@link MicroOpCodec}'s compact byte encoding, appended to one {@link ByteRecords} arena, so they
 * cost no array header and no padding. A pending transaction (there are about as many as there
 * are clients) keeps its invocation's micro-op list as it came, which the completion replaces:
 * encoding it too would cost every transaction a second encoding and an array. A million
 * transactions cost tens of megabytes rather than hundreds. The full op of a transaction is
 * rebuilt only to explain a finding.
 */
final class TxnTable {

    /** Status of a transaction: invoked but not complete. */
    static final byte PENDING = 0;
    static final byte OK = 1;
    static final byte INFO = 2;
    static final byte FAIL = 3;

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
    /**
     * The invocations' micro-ops of pending transactions (about as many as there are clients),
     * in reusable slots: a pending transaction's {@link #mopsAt} is {@code -2 - slot}.
     */
    @SuppressWarnings("unchecked")
    private List<MicroOp>[] pendingMops = new List[64];
    private final Slots pendingSlots = new Slots();
    /** Where a completed transaction's encoding is in {@link #arena} (or its pending slot, as above). */
    private final NarrowLongColumn mopsAt = new NarrowLongColumn(1024);
    private ByteRecords arena = new ByteRecords();
    private final MicroOpCodec codec = new MicroOpCodec();
    /**
     * The last transaction {@link #txn} built, and its id (-1: none). Findings about one
     * transaction come in runs (one a garbage or aborted element of a read), and share it rather
     * than each decoding its own copy of the reads: a read of L elements reported L times would
     * otherwise cost L times L. Dropped whenever a transaction completes or an eviction renumbers.
     */
    private Txn lastTxn;
    private int lastTxnId = -1;

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
            mopsAt.grow(cap);
        }
        int id = size++;
        status[id] = PENDING;
        process.set(id, invoke.process());
        invokeIndex.set(id, invoke.index());
        invokeTime[id] = invoke.time();
        completeIndex.set(id, -1);
        completeTime[id] = -1;
        int slot = pendingSlots.take();
        if (slot == pendingMops.length) {
            pendingMops = Arrays.copyOf(pendingMops, slot * 2);
        }
        pendingMops[slot] = invoke.value();
        mopsAt.set(id, -2 - slot);
        return id;
    }

    /**
     * Forgets the transactions below {@code cut} and renumbers the rest down by {@code cut}
     * (IncrementalChecker#evictBelow). The retained rows move to columns sized for them, the
     * completed ones' encodings to a fresh arena, and the pending slots of forgotten
     * transactions are freed: what the forgotten ones held becomes garbage. Linear in the rows
     * kept.
     */
    void evictBelow(int cut) {
        if (cut < 0 || cut > size) {
            throw new IllegalArgumentException("cannot forget the first " + cut + " of " + size + " transactions");
        }
        forgetLastTxn();
        int kept = size - cut;
        int cap = Math.max(1024, kept + (kept >> 1));
        ByteRecords keptArena = new ByteRecords();
        for (int id = 0; id < size; id++) {
            long at = mopsAt.get(id);
            if (id < cut && at < 0) {
                int slot = (int) (-2 - at);
                pendingMops[slot] = null;
                pendingSlots.release(slot);
            } else if (id >= cut && at >= 0) {
                mopsAt.set(id, keptArena.appendCopy(arena, at));
            }
        }
        arena = keptArena;
        status = Arrays.copyOfRange(status, cut, cut + cap);
        invokeTime = Arrays.copyOfRange(invokeTime, cut, cut + cap);
        completeTime = Arrays.copyOfRange(completeTime, cut, cut + cap);
        for (NarrowLongColumn column : new NarrowLongColumn[] {process, invokeIndex, completeIndex, mopsAt}) {
            column.keepRange(cut, kept, cap);
        }
        size = kept;
    }

    /**
     * How many of the first transactions were invoked before {@code time}: the cut that forgets
     * them, stopping at the first one invoked at or after it (ids follow invocation order).
     */
    int invokedBefore(long time) {
        int n = 0;
        while (n < size && invokeTime[n] < time) {
            n++;
        }
        return n;
    }

    /** Records a completion's outcome, index and time; its micro-ops follow with {@link #storeMicroOps}. */
    void complete(int id, Op completion) {
        forgetLastTxn();
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
        forgetLastTxn();
        codec.encode(value, prefixRead);
        int slot = pendingSlot(id);
        pendingMops[slot] = null;
        pendingSlots.release(slot);
        mopsAt.set(id, arena.append(codec.buffer(), codec.length()));
    }

    private int pendingSlot(int id) {
        long at = mopsAt.get(id);
        if (at >= 0) {
            throw new IllegalStateException("transaction " + id + " has completed already");
        }
        return (int) (-2 - at);
    }

    /**
     * Whether {@code completion} lists the same writes (appends and register writes: kind, key
     * and value, in order) as the invocation of pending transaction {@code id}. Call before
     * {@link #storeMicroOps} replaces the invocation's micro-ops. Allocates nothing.
     */
    boolean sameWrites(int id, List<MicroOp> completion) {
        List<MicroOp> invocation = pendingMops[pendingSlot(id)];
        boolean invokedWrites = MicroOpList.writes(invocation);
        boolean completedWrites = MicroOpList.writes(completion);
        if (!invokedWrites || !completedWrites) {
            return invokedWrites == completedWrites; // a read-only side: equal only if both are
        }
        int i = nextWrite(invocation, 0);
        for (int j = nextWrite(completion, 0); j < completion.size(); j = nextWrite(completion, j + 1)) {
            if (i == invocation.size() || !invocation.get(i).equals(completion.get(j))) {
                return false;
            }
            i = nextWrite(invocation, i + 1);
        }
        return i == invocation.size();
    }

    /** The position of the first append or register write at or after {@code i}, or the size. */
    private static int nextWrite(List<MicroOp> mops, int i) {
        while (i < mops.size() && mops.get(i) instanceof MicroOp.Read) {
            i++;
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
        if (id == lastTxnId) {
            return lastTxn.completion().value();
        }
        long at = mopsAt.get(id);
        return at < 0 ? pendingMops[(int) (-2 - at)] : codec.decode(arena.read(at), prefixes);
    }

    private void forgetLastTxn() {
        lastTxn = null;
        lastTxnId = -1;
    }

    /**
     * The transaction as findings show it: its completion rebuilt, or, while it has not completed
     * yet, its invocation.
     */
    Txn txn(int id, PrefixSource prefixes) {
        if (id == lastTxnId) {
            return lastTxn;
        }
        OpType type = switch (status[id]) {
            case OK -> OpType.OK;
            case FAIL -> OpType.FAIL;
            case INFO -> OpType.INFO;
            default -> OpType.INVOKE;
        };
        boolean complete = type != OpType.INVOKE;
        Op completion = new Op(complete ? completeIndex.get(id) : invokeIndex.get(id),
                complete ? completeTime[id] : invokeTime[id], type, process.get(id), microOps(id, prefixes));
        lastTxn = new Txn(id, invokeIndex.get(id), invokeTime[id], completion);
        lastTxnId = id;
        return lastTxn;
    }
}
