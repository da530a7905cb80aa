package io.isowatch.agent.workload;

import io.isowatch.checker.Workload;
import io.isowatch.gen.KeyPool;
import io.isowatch.history.MicroOp;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;

/**
 * Generates Elle-style transactions ({@code wr-txns}): a length uniform in the configured range,
 * each micro-op a read of a key (result unknown) or a write of the next unique value of that key
 * (an append for list-append, a register write for rw-register). Keys come from the core's
 * {@link KeyPool}, the one the generator ({@code isowatch gen}) uses, so both shape and retire
 * keys by the same rule.
 *
 * <p>With {@link WorkloadOptions#closingReads()} it also keeps the keys that owe a closing read:
 * each key retired, until {@link #takeRetired} hands it out, and each key written and not yet
 * retired, until {@link #takeAtEnd} does.
 *
 * <p>Thread-safe: workers share one generator, so a seed fixes the sequence of transactions
 * (which worker gets which one depends on scheduling). Generation takes the generator's lock
 * for a few hundred nanoseconds per transaction; a caller that must act on a transaction before
 * any other thread sees what generating it changed (the runner records its invocation) holds
 * the generator's monitor around both.
 */
public final class TransactionGenerator {

    private final WorkloadOptions options;
    private final KeyPool keys;
    private final SplittableRandom random;
    /** From a key's own value number (the pool's) to the value written: a fleet member's numbering, or none. */
    private final LongUnaryOperator values;
    /** Retired keys whose closing read is not yet handed out, oldest first. */
    private final ArrayDeque<Long> retired = new ArrayDeque<>();
    /** Keys written and not retired: at most keyCount. */
    private final Set<Long> written = new LinkedHashSet<>();
    /** The current generation of keys shared by time; null for keys retired by count. */
    private final LongSupplier generation;
    /** Handed out by {@link #takeAtEnd}; null until the end. */
    private ArrayDeque<Long> atEnd;

    public TransactionGenerator(WorkloadOptions options) {
        this(options, LongUnaryOperator.identity());
    }

    /**
     * A generator whose written values are {@code values} of the pool's: in a history several
     * agents record, the member's numbering ({@code HistoryMember#value}), so that no two agents
     * write the same value to a key. {@code values} must be injective.
     */
    public TransactionGenerator(WorkloadOptions options, LongUnaryOperator values) {
        this(options, values, null);
    }

    /**
     * A generator of a fleet member: values numbered by {@code values} as above, and keys shared
     * with the history's other agents by time ({@link KeyPool#sharedByTime}): {@code generation}
     * says which generation of keys is current, and a key that leaves its slot is retired (and
     * owed its closing read) as a key used up is otherwise.
     */
    public TransactionGenerator(WorkloadOptions options, LongUnaryOperator values, LongSupplier generation) {
        this.values = Objects.requireNonNull(values, "values");
        this.options = options;
        this.generation = generation;
        this.keys = generation == null
                ? new KeyPool(options.firstKey(), options.keyCount(), options.maxWritesPerKey(), options.keyDistribution())
                : KeyPool.sharedByTime(options.firstKey(), options.keyCount(), options.keyDistribution(),
                        generation.getAsLong());
        this.random = new SplittableRandom(options.seed());
    }

    /** The next transaction's micro-ops, as invoked. */
    public synchronized List<MicroOp> next() {
        if (atEnd != null) {
            throw new IllegalStateException("the run has ended: every key is closed, so no transaction may write again");
        }
        if (generation != null) {
            for (long key : keys.advanceTo(generation.getAsLong())) {
                if (options.closingReads() && written.remove(key)) {
                    retired.add(key);
                }
            }
        }
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
            long key = keys.key(slot);
            long value = keys.takeValue(slot);
            if (value != KeyPool.RETIRED) {
                long v = values.applyAsLong(value);
                ops.add(appends ? new MicroOp.Append(key, v) : new MicroOp.Write(key, v));
                if (options.closingReads()) {
                    written.add(key);
                }
            } else if (options.closingReads() && written.remove(key)) {
                retired.add(key);
            }
        }
        return ops;
    }

    /**
     * The oldest retired key that {@code ready} accepts (the runner: no writer of it still open),
     * no longer owed a closing read; or -1 when there is none. O(retired keys) tests.
     */
    synchronized long takeRetired(LongPredicate ready) {
        for (Iterator<Long> it = retired.iterator(); it.hasNext(); ) {
            long key = it.next();
            if (ready.test(key)) {
                it.remove();
                return key;
            }
        }
        return -1;
    }

    /**
     * At the end of the run, once no transaction is open: each key still owed a closing read
     * (retired, or written and still active), one per call; -1 when all are handed out. The
     * generator generates nothing after the first call.
     */
    synchronized long takeAtEnd() {
        if (atEnd == null) {
            atEnd = new ArrayDeque<>(retired);
            atEnd.addAll(written);
            retired.clear();
            written.clear();
        }
        Long key = atEnd.poll();
        return key == null ? -1 : key;
    }
}
