package io.isowatch.checker;

import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.trace.TxnStatus;

import java.util.List;

/** What the checker offers an {@link Inference}: outcomes, edges, findings, and transactions to show. */
interface InferenceContext extends TxnStatus {

    /** Adds a dependency edge (and searches for the cycles it closes). */
    void link(int from, int to, EdgeKind kind);

    /** Reports a finding. */
    void report(Finding finding);

    /**
     * Reports a garbage read judged at its reader's completion under the agent protocol
     * ({@link io.isowatch.trace.ReadSettling}): it rests on claims the checker knows all of, so
     * it stands even in a history the checker sees truncated, where other garbage reads are
     * only counted.
     */
    void reportJudgedAtCompletion(Finding finding);

    /**
     * Leaves the dirty updates reported so far on {@code key} out of the verdict; they stay
     * reported (see {@link io.isowatch.trace.TraceListener#dirtyUpdatesSuperseded}).
     */
    void leaveDirtyUpdatesOutOfVerdict(long key);

    /** A transaction as findings show it. */
    Txn txn(int id);

    /** A transaction's micro-ops (its completion's once complete). */
    List<MicroOp> microOps(int id);

    /** Throws a violation of the history at {@code op}. */
    default HistoryViolationException violation(Op op, String message) {
        return new HistoryViolationException(op, message);
    }

    /** The history index of a transaction's invocation. */
    long invokeIndex(int id);

    /** An atom as text. */
    String render(long atom);
}
