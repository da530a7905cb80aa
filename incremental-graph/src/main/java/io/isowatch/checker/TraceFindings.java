package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.MicroOp;
import io.isowatch.trace.TraceListener;

import java.util.List;
import java.util.Map;

/** Turns what version traces report into edges and findings, naming the micro-op at fault. */
final class TraceFindings implements TraceListener {

    private final InferenceContext context;

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

    /** The index of the first read of {@code key} in {@code t} holding {@code element}, or -1. */
    static int readHolding(Txn t, long key, long element) {
        List<MicroOp> mops = t.completion().value();
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
