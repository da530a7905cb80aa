package io.isowatch.checker;

import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.Op;

import java.util.List;

/**
 * What one workload (list-append, rw-register) infers from its keys. The checker owns everything
 * else: pairing, transactions, session order, the graph and its cycles. An inference reports
 * edges and findings through its {@link InferenceContext}; every report is final.
 */
interface Inference {

    /**
     * An invocation, with its id; claims the values it writes (a repeated value is a violation).
     * {@code timeKnown} is false for a completion that came without one: nothing precedes the
     * transaction in real time.
     */
    void invoked(int txn, Op invocation, boolean timeKnown);

    /**
     * A completion, whose outcome the context already knows. Returns, per micro-op, whether a
     * read may be stored compactly as a prefix of its key's order.
     */
    boolean[] completed(int txn, Op completion, byte outcome);

    /** No further event will come: settle every key. */
    void settle();

    /** The evidence for a data edge (ww, wr or rw) from {@code a} to {@code b}, or null. */
    Evidence explain(int a, int b, EdgeKind kind);

    /** The first {@code length} elements of {@code key}'s order, for reads stored compactly. */
    long[] prefix(long key, int length);

    /** Lost updates as Elle reports them for the whole history: every group, complete. */
    List<Finding> lostUpdates();
}
