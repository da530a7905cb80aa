package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.collect.IntList;
import io.isowatch.collect.LongIntMap;
import io.isowatch.collect.LongList;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.trace.ListAppendTrace;
import io.isowatch.trace.ListAppendTraces;
import io.isowatch.trace.ReadSettling;

import java.util.ArrayList;
import java.util.List;

/**
 * Elle's list-append inference: per-key version traces (the longest read is the order), plus
 * the transaction-local checks (internal, future-read) and lost updates.
 *
 * <p>{@link #evictBelow} forgets a prefix of the transactions: the traces and lost-update groups
 * renumber what they keep, and a key no retained transaction has appended to or read is
 * dropped whole.
 */
final class ListAppendInference implements Inference {

    private final InferenceContext context;
    private final ListAppendTraces traces;
    private final TraceFindings findings;
    private final LostUpdates lostUpdates = new LostUpdates();

    ListAppendInference(InferenceContext context) {
        this(context, ReadSettling.atTheEnd());
    }

    /** An inference whose traces judge garbage reads as {@code settling} says. */
    ListAppendInference(InferenceContext context, ReadSettling settling) {
        this.context = context;
        this.traces = new ListAppendTraces(settling);
        this.findings = new TraceFindings(context);
    }

    @Override
    public void invoked(int txn, Op invocation, boolean timeKnown) {
        List<MicroOp> mops = invocation.value();
        for (int i = 0; i < mops.size(); i++) {
            if (!(mops.get(i) instanceof MicroOp.Append append)) {
                continue;
            }
            boolean intermediate = TransactionChecks.writtenAgainLater(mops, i);
            int other = traces.trace(append.key()).claim(append.value(), txn, intermediate, findings);
            if (other == ListAppendTrace.FORGOTTEN_WRITER) {
                throw context.violation(invocation, Messages.duplicateAppendOfForgotten(invocation,
                        context.render(append.key()), context.render(append.value())));
            }
            if (other != LongIntMap.MISSING) {
                throw context.violation(invocation, Messages.duplicateAppend(invocation, context.render(append.key()),
                        context.render(append.value()), context.invokeIndex(other)));
            }
        }
    }

    @Override
    public boolean[] completed(int txn, Op completion, byte outcome) {
        List<MicroOp> mops = completion.value();
        boolean[] prefixRead = new boolean[mops.size()];
        for (MicroOp m : mops) {
            if (m instanceof MicroOp.Append append) {
                ListAppendTrace trace = traces.trace(append.key());
                if (trace.writerOf(append.value()) == txn) {
                    trace.writerCompleted(txn, append.value(), context, findings);
                }
            }
        }
        for (int i = 0; i < mops.size(); i++) {
            if (mops.get(i) instanceof MicroOp.Read read && read.known()) {
                ListAppendTrace trace = traces.trace(read.key());
                if (outcome == TxnTable.FAIL) {
                    trace.failedRead(read.values());
                } else {
                    prefixRead[i] = trace.read(txn, read.values(), outcome == TxnTable.OK, context, findings);
                }
            }
        }
        if (outcome == TxnTable.OK) {
            checkAlone(txn, mops, prefixRead);
        }
        return prefixRead;
    }

    private void checkAlone(int txn, List<MicroOp> mops, boolean[] prefixRead) {
        TransactionChecks.InternalCase internal = TransactionChecks.internal(mops);
        if (internal != null) {
            context.report(new Finding.Internal(context.txn(txn), internal.mopIndex(), internal.expected(),
                    internal.unknownPrefix()));
        }
        TransactionChecks.FutureReadCase future = TransactionChecks.futureRead(mops);
        if (future != null) {
            context.report(new Finding.BadRead(AnomalyType.FUTURE_READ, context.txn(txn), future.mopIndex(),
                    future.element(), null));
        }
        for (int i = 0; i < mops.size(); i++) {
            // A read is identified by its key and length, exact for reads that are prefixes of
            // the order; reads contradicting the order are left to incompatible-order.
            if (mops.get(i) instanceof MicroOp.Read read && read.known() && prefixRead[i]) {
                int group = lostUpdates.record(txn, mops, i, read.length());
                if (group >= 0) {
                    context.report(lostUpdate(group));
                }
            }
        }
    }

    private final LostUpdates.VersionText versions = (key, length) -> prefix(key, (int) length);

    private Finding lostUpdate(int group) {
        return lostUpdates.finding(group, versions, context::txn);
    }

    @Override
    public List<Finding> lostUpdates() {
        return lostUpdates.findings(versions, context::txn);
    }

    @Override
    public void settle() {
        traces.forEach(trace -> {
            // After an eviction the longest read may be one never seen here: in doubt, infer
            // nothing more for a key already reported as incompatible-order.
            if (trace.broken() && !trace.partial()) {
                inferFromLongestRead(trace);
            }
            trace.settle(context, findings);
        });
    }

    /**
     * A key whose reads contradict each other has no version order; Elle then takes its longest
     * read (the first of that length) as the order anyway. Once no further read can come, derive
     * that order's edges exactly as for any key: ww between consecutive writers, wr to each read's
     * last element, rw to the element after it, and appends nobody read placed after the last.
     * The edges inferred earlier, from the reads as they agreed then, stay (they are never
     * retracted); both were observed.
     */
    private void inferFromLongestRead(ListAppendTrace trace) {
        long key = trace.key();
        List<int[]> readerIndex = new ArrayList<>();
        List<long[]> reads = new ArrayList<>();
        long[] longest = new long[0];
        for (int i = 0; i < trace.readers().size(); i++) {
            int reader = trace.readers().get(i);
            for (MicroOp m : context.microOps(reader)) {
                if (m instanceof MicroOp.Read r && r.key() == key && r.known()) {
                    readerIndex.add(new int[] {reader});
                    reads.add(r.values());
                    if (r.length() > longest.length) {
                        longest = r.values();
                    }
                }
            }
        }
        trace.settleOn(longest);
        LongList order = new LongList();
        LongIntMap position = new LongIntMap();
        for (long e : trace.settledOrder()) {
            position.put(e, order.size());
            order.add(e);
        }
        for (int i = 1; i < order.size(); i++) {
            linkWriters(trace, order.get(i - 1), order.get(i), EdgeKind.WW);
        }
        IntList lastReaders = new IntList();
        for (int i = 0; i < reads.size(); i++) {
            int reader = readerIndex.get(i)[0];
            long[] values = reads.get(i);
            int next;
            if (values.length == 0) {
                next = 0;
            } else {
                long last = values[values.length - 1];
                int w = trace.writerOf(last);
                if (w != LongIntMap.MISSING && w != reader && context.possible(w)) {
                    context.link(w, reader, EdgeKind.WR);
                }
                int p = position.get(last);
                next = p == LongIntMap.MISSING ? -1 : p + 1;
            }
            if (next >= 0 && next < order.size()) {
                int w = trace.writerOf(order.get(next));
                if (w != LongIntMap.MISSING && context.possible(w)) {
                    context.link(reader, w, EdgeKind.RW);
                }
            } else if (next == order.size()) {
                lastReaders.add(reader);
            }
        }
        int lastWriter = order.isEmpty() ? LongIntMap.MISSING : trace.writerOf(order.last());
        trace.forEachWriter((element, w) -> {
            if (position.containsKey(element) || !context.possible(w)) {
                return;
            }
            if (lastWriter != LongIntMap.MISSING && context.possible(lastWriter)) {
                context.link(lastWriter, w, EdgeKind.WW);
            }
            for (int i = 0; i < lastReaders.size(); i++) {
                context.link(lastReaders.get(i), w, EdgeKind.RW);
            }
        });
    }

    private void linkWriters(ListAppendTrace trace, long before, long after, EdgeKind kind) {
        int a = trace.writerOf(before);
        int b = trace.writerOf(after);
        if (a != LongIntMap.MISSING && b != LongIntMap.MISSING && context.possible(a) && context.possible(b)) {
            context.link(a, b, kind);
        }
    }

    @Override
    public long[] prefix(long key, int length) {
        ListAppendTrace trace = traces.find(key);
        if (trace == null) {
            throw new IllegalStateException("no version order for key " + context.render(key)
                    + " to decode a read of length " + length + " from; its trace was dropped or never made");
        }
        return trace.prefix(length);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A cut of 0 forgets nothing and changes nothing. Any other leaves every trace
     * {@linkplain ListAppendTrace#partial partial}: settling after it places no appends nobody
     * read and redoes no key from its longest read, as the reads of forgotten transactions still
     * pending will never arrive. Calls nothing on the context.
     */
    @Override
    public void evictBelow(int cut) {
        if (cut < 0) {
            throw new IllegalArgumentException("cannot evict below a negative transaction id: " + cut);
        }
        if (cut == 0) {
            return;
        }
        traces.evictBelow(cut);
        lostUpdates.evictBelow(cut);
    }

    /** Keys with a live trace: it falls when keys retire and an eviction passes them. */
    int keyCount() {
        return traces.size();
    }

    @Override
    public Evidence explain(int a, int b, EdgeKind kind) {
        return switch (kind) {
            case WW -> writeWrite(a, b);
            case WR -> writeRead(a, b);
            case RW -> readWrite(a, b);
            default -> null;
        };
    }

    private Evidence writeWrite(int a, int b) {
        long[] previous = new long[1];
        for (MicroOp op : context.microOps(b)) {
            if (op instanceof MicroOp.Append append) {
                ListAppendTrace trace = traces.find(append.key());
                if (trace == null) {
                    continue;
                }
                if ((trace.previousElement(append.value(), previous) && trace.writerOf(previous[0]) == a)
                        || (trace.previousInSettledOrder(append.value(), previous) && trace.writerOf(previous[0]) == a)) {
                    return new Evidence.WriteWrite(append.key(), previous[0], append.value());
                }
            }
        }
        return null;
    }

    private Evidence writeRead(int a, int b) {
        for (MicroOp op : context.microOps(b)) {
            if (op instanceof MicroOp.Read read && read.length() > 0) {
                long last = read.values()[read.length() - 1];
                ListAppendTrace trace = traces.find(read.key());
                if (trace != null && trace.writerOf(last) == a) {
                    return new Evidence.WriteRead(read.key(), last);
                }
            }
        }
        return null;
    }

    private Evidence readWrite(int a, int b) {
        List<MicroOp> readerOps = context.microOps(a);
        long[] previous = new long[1];
        for (MicroOp op : context.microOps(b)) {
            if (!(op instanceof MicroOp.Append append)) {
                continue;
            }
            ListAppendTrace trace = traces.find(append.key());
            if (trace == null || trace.writerOf(append.value()) == LongIntMap.MISSING) {
                continue;
            }
            boolean initial = !trace.previousElement(append.value(), previous);
            Evidence e = readBefore(readerOps, append, initial, previous[0]);
            if (e == null && trace.broken()) {
                boolean settledInitial = !trace.previousInSettledOrder(append.value(), previous);
                e = readBefore(readerOps, append, settledInitial, previous[0]);
            }
            if (e != null) {
                return e;
            }
        }
        return null;
    }

    /** rw evidence when one of the reader's reads of the key ends just before the append. */
    private static Evidence readBefore(List<MicroOp> readerOps, MicroOp.Append append, boolean initial, long previous) {
        for (MicroOp r : readerOps) {
            if (r instanceof MicroOp.Read read && read.known() && read.key() == append.key()
                    && (initial ? read.length() == 0
                                : read.length() > 0 && read.values()[read.length() - 1] == previous)) {
                return new Evidence.ReadWrite(append.key(), initial, initial ? 0 : previous, append.value());
            }
        }
        return null;
    }
}
