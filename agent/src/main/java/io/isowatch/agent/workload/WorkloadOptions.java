package io.isowatch.agent.workload;

import io.isowatch.checker.Workload;
import io.isowatch.gen.KeyDistribution;
import io.isowatch.gen.TxnShape;

import java.time.Duration;
import java.util.Objects;

/**
 * What the {@link WorkloadRunner} runs: the {@link TxnShape} (shared with the generator and the
 * demo), how many clients, how fast and for how long.
 *
 * <p>Start from {@link #defaults()} and change what matters through {@link #toBuilder()}; the
 * compact constructor rejects bad values naming the option.
 *
 * @param workload     list-append or rw-register
 * @param concurrency  worker threads, each one client running one transaction at a time
 * @param rate         transactions per second over all workers; 0 for as fast as possible
 * @param duration     how long to run; {@link Duration#ZERO} for no time limit
 * @param txnLimit     transactions to invoke at most; 0 for no limit
 * @param shape        keys, lengths, writes per key, read probability and key distribution
 * @param seed         seeds the transaction generator
 * @param firstKey     the first key id; keys are numbered upwards from it. A run that continues an
 *                     earlier history against a fresh store starts past the keys that history used
 * @param closingReads read each key once more when it retires, after every transaction generated
 *                     with a write to it has completed, and at the end every key written and not
 *                     yet so read (see {@link WorkloadRunner}); on by default
 */
public record WorkloadOptions(Workload workload, int concurrency, double rate, Duration duration, long txnLimit,
                              TxnShape shape, long seed, long firstKey, boolean closingReads) {

    public WorkloadOptions {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(shape, "shape");
        atLeast("concurrency", concurrency, 1);
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate must be >= 0 transactions per second (0: unlimited), got " + rate);
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration must not be negative, got " + duration);
        }
        atLeast("txnLimit", txnLimit, 0);
        atLeast("firstKey", firstKey, 0);
    }

    /**
     * List-append in Elle's shape ({@link TxnShape#ELLE}); 10 clients, unlimited rate, 10 seconds,
     * seed 0; closing reads on.
     */
    public static WorkloadOptions defaults() {
        return new WorkloadOptions(Workload.LIST_APPEND, 10, 0, Duration.ofSeconds(10), 0, TxnShape.ELLE, 0, 0, true);
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    public int keyCount() {
        return shape.keyCount();
    }

    public int minTxnLength() {
        return shape.minTxnLength();
    }

    public int maxTxnLength() {
        return shape.maxTxnLength();
    }

    public int maxWritesPerKey() {
        return shape.maxWritesPerKey();
    }

    public double readProbability() {
        return shape.readProbability();
    }

    public KeyDistribution keyDistribution() {
        return shape.keyDistribution();
    }

    private static void atLeast(String option, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(option + " must be >= " + min + ", got " + value);
        }
    }

    /** Builds {@link WorkloadOptions}; the records' constructors check the values. */
    public static final class Builder {
        private Workload workload;
        private int concurrency;
        private double rate;
        private Duration duration;
        private long txnLimit;
        private TxnShape.Builder shape;
        private long seed;
        private long firstKey;
        private boolean closingReads;

        private Builder(WorkloadOptions from) {
            workload = from.workload;
            concurrency = from.concurrency;
            rate = from.rate;
            duration = from.duration;
            txnLimit = from.txnLimit;
            shape = from.shape.toBuilder();
            seed = from.seed;
            firstKey = from.firstKey;
            closingReads = from.closingReads;
        }

        public Builder workload(Workload value) {
            workload = value;
            return this;
        }

        public Builder concurrency(int value) {
            concurrency = value;
            return this;
        }

        public Builder rate(double value) {
            rate = value;
            return this;
        }

        public Builder duration(Duration value) {
            duration = value;
            return this;
        }

        public Builder txnLimit(long value) {
            txnLimit = value;
            return this;
        }

        /** The whole shape at once. */
        public Builder shape(TxnShape value) {
            shape = value.toBuilder();
            return this;
        }

        public Builder keyCount(int value) {
            shape.keyCount(value);
            return this;
        }

        /** Sets both length bounds at once. */
        public Builder txnLength(int min, int max) {
            shape.txnLength(min, max);
            return this;
        }

        public Builder maxWritesPerKey(int value) {
            shape.maxWritesPerKey(value);
            return this;
        }

        public Builder readProbability(double value) {
            shape.readProbability(value);
            return this;
        }

        public Builder keyDistribution(KeyDistribution value) {
            shape.keyDistribution(value);
            return this;
        }

        public Builder seed(long value) {
            seed = value;
            return this;
        }

        public Builder firstKey(long value) {
            firstKey = value;
            return this;
        }

        public Builder closingReads(boolean value) {
            closingReads = value;
            return this;
        }

        public WorkloadOptions build() {
            return new WorkloadOptions(workload, concurrency, rate, duration, txnLimit, shape.build(), seed, firstKey,
                    closingReads);
        }
    }
}
