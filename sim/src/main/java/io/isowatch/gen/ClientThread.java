package io.isowatch.gen;

import io.isowatch.history.MicroOp;
import io.isowatch.history.OpType;

import java.util.List;

/**
 * One simulated client thread and the transaction it has in flight. Mutable and reused for
 * every transaction of the thread, so the generator allocates nothing per thread per step.
 */
final class ClientThread {

    enum Phase {
        /** No transaction outstanding: the next step invokes one. */
        IDLE,
        /** Invoked, not yet taken effect: the next step is its linearization point. */
        INVOKED,
        /** Taken effect (or aborted): the next step completes it. */
        EXECUTED
    }

    /** The Jepsen process; replaced by {@code process + concurrency} after an info completion. */
    long process;
    Phase phase = Phase.IDLE;

    /** The cells each micro-op touches, in order; entries past the length are stale. */
    final KeyCell[] cells;
    /**
     * Closing reads: the cells of the transaction's write micro-ops, in {@code written[0,
     * writeCount)}, held until it completes; unused without closing reads.
     */
    final KeyCell[] written;
    int writeCount;
    List<MicroOp> invocation;
    long invokeIndex;
    OpType outcome;
    List<MicroOp> completion;

    ClientThread(long process, int maxTxnLength, boolean closingReads) {
        this.process = process;
        this.cells = new KeyCell[maxTxnLength];
        this.written = new KeyCell[closingReads ? maxTxnLength : 0];
    }
}
