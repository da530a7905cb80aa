package io.isowatch.agent.workload;

import io.isowatch.checker.Workload;
import io.isowatch.gen.KeyPool;
import io.isowatch.history.MicroOp;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates Elle-style transactions ({@code wr-txns}): a length uniform in the configured range,
 * each micro-op a read of a key (result unknown) or a write of the next unique value of that key
 * (an append for list-append, a register write for rw-register). Keys come from the core's
 * {@link KeyPool}, the one the generator ({@code isowatch gen}) uses, so both shape and retire
 * keys by the same rule.
 *
 * <p>Thread-safe: workers share one generator, so a seed fixes the sequence of transactions
 * (which worker gets which one depends on scheduling). Generation takes a lock for a few
 * hundred nanoseconds per transaction.
 */
public final class TransactionGenerator {

    private final WorkloadOptions options;
    private final KeyPool keys;
    private final SplittableRandom random;

    public TransactionGenerator(WorkloadOptions options) {
        this.options = options;
        this.keys = new KeyPool(options.firstKey(), options.keyCount(), options.maxWritesPerKey(), options.keyDistribution());
        this.random = new SplittableRandom(options.seed());
    }

    /** The next transaction's micro-ops, as invoked. */
    public synchronized List<MicroOp> next() {
        int length = options.minTxnLength() + random.nextInt(options.maxTxnLength() - options.minTxnLength() + 1);
        List<MicroOp> ops = new ArrayList<>(length);
        boolean appends = options.workload() == Workload.LIST_APPEND;
        while (ops.size() < length) {
            boolean read = random.nextDouble() < options.readProbability();
            int slot = keys.pickSlot(random);
            if (read) {
                ops.add(new MicroOp.Read(keys.key(slot), null));
                continue;
            }
            long value = keys.takeValue(slot);
            if (value != KeyPool.RETIRED) {
                long key = keys.key(slot);
                ops.add(appends ? new MicroOp.Append(key, value) : new MicroOp.Write(key, value));
            }
        }
        return ops;
    }
}
