package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.collect.LongIntMap;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.trace.TraceListener;

import java.util.List;
import java.util.Map;

/** Turns what version traces report into edges and findings, naming the micro-op at fault. */
final class TraceFindings implements TraceListener {

    /** Reads up to this long are scanned for an element rather than indexed ({@link #readHolding}). */
    private static final int SCANNED = 64;

    private final InferenceContext context;
    /** The completion whose reads of {@link #indexedKey} {@link #readIndex} indexes, or null. */
    private Op indexedOp;
    private long indexedKey;
    /** Element to the index of the first read of {@link #indexedKey} in {@link #indexedOp} holding it. */
    private LongIntMap readIndex;

    TraceFindings(InferenceContext context) {
        this.context = context;
    }

    @Override
    public void edge(int from, int to, EdgeKind kind) {
        context.link(from, to, kind);
    }

    @Override
    public void garbageRead(int reader, long key, long element) {
        Txn r = context.txn(reader);
        context.report(new Finding.BadRead(AnomalyType.GARBAGE_READ, r, readHolding(r, key, element), element, null));
    }

    @Override
    public void garbageReadAtCompletion(int reader, long key, long element) {
        Txn r = context.txn(reader);
        context.reportJudgedAtCompletion(new Finding.BadRead(AnomalyType.GARBAGE_READ, r, readHolding(r, key, element),
                element, null));
    }

    @Override
    public void abortedRead(int reader, long key, long element, int writer) {
        Txn r = context.txn(reader);
        context.report(new Finding.BadRead(AnomalyType.G1A, r, readHolding(r, key, element), element,
                context.txn(writer)));
    }

    @Override
    public void intermediateRead(int reader, long key, long element, int writer) {
        Txn r = context.txn(reader);
        context.report(new Finding.BadRead(AnomalyType.G1B, r, readHolding(r, key, element), element,
                context.txn(writer)));
    }

    @Override
    public void duplicateElements(int reader, long key, Map<Long, Integer> counts) {
        Txn r = context.txn(reader);
        context.report(new Finding.DuplicateElements(r, readOf(r, key), counts));
    }

    @Override
    public void incompatibleOrder(long key, long[] shorter, long[] longer) {
        context.report(new Finding.IncompatibleOrder(key, shorter, longer));
    }

    @Override
    public void dirtyUpdate(long key, long[] values, int aborted, int committed) {
        context.report(new Finding.DirtyUpdate(key, values, context.txn(aborted), context.txn(committed)));
    }

    @Override
    public void dirtyUpdatesSuperseded(long key) {
        context.leaveDirtyUpdatesOutOfVerdict(key);
    }

    @Override
    public void cyclicVersions(long key, long[] cycle, String source) {
        context.report(new Finding.CyclicVersions(key, cycle, source));
    }

    /**
     * The index of the first read of {@code key} in {@code t} holding {@code element}, or -1.
     * Reads of up to {@link #SCANNED} elements are scanned; longer ones are indexed once, for the
     * run of findings about their elements that usually follows (a garbage or aborted element
     * each), so that run costs the reads' length, not that length times the run's.
     */
    int readHolding(Txn t, long key, long element) {
        Op op = t.completion();
        if (op != indexedOp || key != indexedKey) {
            if (elementsRead(op.value(), key) <= SCANNED) {
                return scan(op.value(), key, element);
            }
            index(op, key);
        }
        int i = readIndex.get(element);
        return i == LongIntMap.MISSING ? -1 : i;
    }

    private static long elementsRead(List<MicroOp> mops, long key) {
        long n = 0;
        for (MicroOp m : mops) {
            if (m instanceof MicroOp.Read r && r.key() == key) {
                n += r.length();
            }
        }
        return n;
    }

    private static int scan(List<MicroOp> mops, long key, long element) {
        for (int i = 0; i < mops.size(); i++) {
            if (mops.get(i) instanceof MicroOp.Read r && r.key() == key && r.known()) {
                for (long e : r.values()) {
                    if (e == element) {
                        return i;
                    }
                }
            }
        }
        return -1;
    }

    private void index(Op op, long key) {
        List<MicroOp> mops = op.value();
        LongIntMap first = new LongIntMap();
        for (int i = 0; i < mops.size(); i++) {
            if (mops.get(i) instanceof MicroOp.Read r && r.key() == key && r.known()) {
                for (long e : r.values()) {
                    if (!first.containsKey(e)) {
                        first.put(e, i);
                    }
                }
            }
        }
        indexedOp = op;
        indexedKey = key;
        readIndex = first;
    }

    private static int readOf(Txn t, long key) {
        List<MicroOp> mops = t.completion().value();
        for (int i = 0; i < mops.size(); i++) {
            if (mops.get(i) instanceof MicroOp.Read r && r.key() == key && r.known()) {
                return i;
            }
        }
        return -1;
    }
}
