package io.isowatch.checker;

import io.isowatch.anomaly.Evidence;
import io.isowatch.collect.LongIntMap;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.MicroOp;
import io.isowatch.trace.ListAppendTrace;
import io.isowatch.trace.ListAppendTraces;

import java.util.List;
import java.util.function.IntFunction;

/**
 * Recovers why one transaction precedes another, for explaining a cycle.
 *
 * <p>Edges carry no evidence of their own (that would cost memory on every edge of every
 * history); instead, as Elle's explainers do, the evidence is found again from the two
 * transactions' micro-ops and the keys' version orders. Only the few edges of reported cycles
 * are ever explained.
 */
final class EdgeExplainer {

    private final TxnTable txns;
    private final ListAppendTraces traces;
    private final IntFunction<List<MicroOp>> microOps;

    EdgeExplainer(TxnTable txns, ListAppendTraces traces, IntFunction<List<MicroOp>> microOps) {
        this.txns = txns;
        this.traces = traces;
        this.microOps = microOps;
    }

    /** The evidence for {@code a -> b} of {@code kind}; throws when the edge cannot be justified. */
    Evidence explain(int a, int b, EdgeKind kind) {
        Evidence found = switch (kind) {
            case WW -> writeWrite(a, b);
            case WR -> writeRead(a, b);
            case RW -> readWrite(a, b);
            case PROCESS -> new Evidence.Process(txns.process(a));
            case REALTIME -> new Evidence.Realtime(txns.completeIndex(a), txns.completeTime(a),
                    txns.invokeIndex(b), txns.invokeTime(b));
        };
        if (found == null) {
            throw new IllegalStateException("no evidence for " + kind.elleName() + " edge from transaction "
                    + a + " to " + b + "; the graph and the traces disagree (a checker bug)");
        }
        return found;
    }

    private Evidence writeWrite(int a, int b) {
        long[] previous = new long[1];
        for (MicroOp op : microOps.apply(b)) {
            if (op instanceof MicroOp.Append append) {
                ListAppendTrace trace = traces.find(append.key());
                if (trace != null && trace.previousElement(append.value(), previous)
                        && trace.writerOf(previous[0]) == a) {
                    return new Evidence.WriteWrite(append.key(), previous[0], append.value());
                }
            }
        }
        return null;
    }

    private Evidence writeRead(int a, int b) {
        for (MicroOp op : microOps.apply(b)) {
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
        List<MicroOp> readerOps = microOps.apply(a);
        long[] previous = new long[1];
        for (MicroOp op : microOps.apply(b)) {
            if (!(op instanceof MicroOp.Append append)) {
                continue;
            }
            ListAppendTrace trace = traces.find(append.key());
            if (trace == null || trace.writerOf(append.value()) == LongIntMap.MISSING) {
                continue;
            }
            boolean initial = !trace.previousElement(append.value(), previous);
            for (MicroOp r : readerOps) {
                if (r instanceof MicroOp.Read read && read.known() && read.key() == append.key()
                        && (initial ? read.length() == 0
                                    : read.length() > 0 && read.values()[read.length() - 1] == previous[0])) {
                    return new Evidence.ReadWrite(append.key(), initial, initial ? 0 : previous[0], append.value());
                }
            }
        }
        return null;
    }
}
