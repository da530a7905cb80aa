package io.isowatch.trace;

import io.isowatch.graph.EdgeKind;

import java.util.Map;

/**
 * Receives what a version trace infers: dependency edges and the per-key findings. Transactions
 * are checker ids; keys and elements are atoms. Each call is final: nothing is ever retracted.
 */
public interface TraceListener {

    /** {@code from} must precede {@code to} because of {@code kind} on this trace's key. */
    void edge(int from, int to, EdgeKind kind);

    /** {@code reader} read {@code element} of {@code key}, which no transaction ever appended. */
    void garbageRead(int reader, long key, long element);

    /**
     * As {@link #garbageRead}, judged at the reader's completion under the agent protocol
     * ({@link ReadSettling}): no invocation recorded before the read returned claims the element.
     * Only a trace that knows every claim on its key judges so.
     */
    void garbageReadAtCompletion(int reader, long key, long element);

    /** {@code reader} read {@code element}, appended by {@code writer}, which aborted (G1a). */
    void abortedRead(int reader, long key, long element, int writer);

    /** {@code reader}'s read of {@code key} ended in {@code writer}'s non-final append (G1b). */
    void intermediateRead(int reader, long key, long element, int writer);

    /** {@code reader}'s read of {@code key} holds some elements more than once. */
    void duplicateElements(int reader, long key, Map<Long, Integer> counts);

    /** Two reads of {@code key} of which neither is a prefix of the other. */
    void incompatibleOrder(long key, long[] shorter, long[] longer);

    /** In {@code key}'s order, {@code committed}'s append followed {@code aborted}'s; {@code values} span them. */
    void dirtyUpdate(long key, long[] values, int aborted, int committed);

    /**
     * The dirty updates reported so far on {@code key} came from walking an order that is not
     * the read Elle's dirty-update pass walks: they stay reported, but belong in no verdict.
     */
    void dirtyUpdatesSuperseded(long key);

    /**
     * Adding an inference from {@code source} (e.g. "wfr-keys") would make {@code key}'s version
     * graph cyclic; {@code cycle} lists the versions round it ({@link #NIL} for the initial nil).
     * The inference is left out.
     */
    void cyclicVersions(long key, long[] cycle, String source);

    /** Stands for the initial nil version of a register in {@link #cyclicVersions}. */
    long NIL = Long.MIN_VALUE + (1L << 40);
}
