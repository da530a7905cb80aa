package io.isowatch.agent.workload;

import io.isowatch.checker.Workload;

import io.isowatch.history.MicroOp;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates Elle-style transactions ({@code wr-txns}): a length uniform in the configured range,
 * each micro-op a read of a key (result unknown) or a write of the next unique value of that key
 * (an append for list-append, a register write for rw-register).
 *
 * <p>Thread-safe: workers share one generator, so a seed fixes the sequence of transactions
 * (which worker gets which one depends on scheduling). Generation takes a lock for a few
 * hundred nanoseconds per transaction.
 */
public final class TransactionGenerator {

    private final WorkloadOptions options;
    private final KeySpace keys;
    private final SplittableRandom random;

    public TransactionGenerator(WorkloadOptions options) {
        this.options = options;
        this.keys = new KeySpace(options.firstKey(), options.keyCount(), options.maxWritesPerKey(), options.keyDistribution());
        this.random = new SplittableRandom(options.seed());
    }

    /** The next transaction's micro-ops, as invoked. */
    public synchronized List<MicroOp> next() {
        int length = options.minTxnLength() + random.nextInt(options.maxTxnLength() - options.minTxnLength() + 1);
        List<MicroOp> ops = new ArrayList<>(length);
        boolean appends = options.workload() == Workload.LIST_APPEND;
        for (int i = 0; i < length; i++) {
            int slot = keys.pickSlot(random);
            long key = keys.key(slot);
            if (random.nextDouble() < options.readProbability()) {
                ops.add(new MicroOp.Read(key, null));
            } else {
                long value = keys.takeValue(slot);
                ops.add(appends ? new MicroOp.Append(key, value) : new MicroOp.Write(key, value));
            }
        }
        return ops;
    }
}
