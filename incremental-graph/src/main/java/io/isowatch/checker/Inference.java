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

    /**
     * Forgets every transaction below {@code cut} and renumbers every other by {@code -cut}:
     * afterwards ids {@code 0..n-cut-1} are the retained transactions, and new ones continue from
     * {@code n-cut}. Called between two events, never while one is handled.
     *
     * <p>Forgetting may only lose: every edge and finding reported afterwards must be justified
     * by the whole history, forgotten transactions included. Edges and findings that needed a
     * forgotten transaction are lost; a forgotten transaction still pending never completes here
     * (the checker skips its completion), so nothing may wait for it; a value whose writer is
     * forgotten behaves as one with no known writer in a checker that saw the history from the
     * cut, without ever being taken for garbage. Knowledge true of the whole history (a key's
     * version order) may stay while retained transactions need it ({@link #prefix} must keep
     * decoding their reads); state no retained transaction touches must go, so that memory stays
     * bounded as keys retire. Costs time linear in the inference's size, and nothing on the
     * per-event paths.
     *
     * @throws IllegalArgumentException when {@code cut} is negative
     */
    void evictBelow(int cut);
}
