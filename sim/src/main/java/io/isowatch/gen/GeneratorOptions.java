package io.isowatch.gen;

import java.util.Objects;

/**
 * What {@link ListAppendGenerator} generates: how many transactions, how many clients run them,
 * their {@link TxnShape} and the rates of injected faults.
 *
 * <p>The compact constructor rejects bad values with an {@link IllegalArgumentException} naming
 * the option and the value. Start from {@link #defaults()} and change what matters through
 * {@link #toBuilder()}.
 *
 * @param txnCount      ordinary transactions to invoke; each is completed, so the history holds
 *                      twice as many events, plus two for each closing read
 * @param concurrency   client threads; each runs one transaction at a time
 * @param shape         keys, lengths, writes per key, read probability and key distribution
 * @param failRate      chance that a transaction aborts: it has no effect and completes {@code fail}
 * @param infoRate      chance that a transaction's outcome is unknown: it takes effect or not
 *                      (even odds), completes {@code info}, and its process is retired
 * @param seed          seeds every random choice; equal options give equal histories
 * @param staleReadRate makes the store faulty: each read of a key the transaction has not
 *                      appended to returns, with this probability, an older version of the list
 *                      (one of the last three), as a lagging replica would. Histories then hold
 *                      real anomalies (stale reads show up as G-single-item, G2-item and their
 *                      realtime variants). 0 keeps the store strict-serializable
 * @param closingReads  when a key retires, once no transaction in flight writes to it any more,
 *                      an idle client reads it in a transaction of its own ({@code [[:r k nil]]}),
 *                      before any new transaction; and once {@code txnCount} transactions are
 *                      invoked, every key written and not yet closed is read the same way. Every
 *                      append that took effect is then read by someone (unless a fault hits the
 *                      closing read), so the checker never has to place an append nobody read, an
 *                      inference that waits for the history's end. Closing reads come on top of
 *                      {@code txnCount}, draw faults like any transaction, and have one micro-op
 *                      whatever {@code minTxnLength}. Off by default, so existing seeds keep their
 *                      histories; on in {@code isowatch gen}
 */
public record GeneratorOptions(long txnCount, int concurrency, TxnShape shape, double failRate, double infoRate,
                               long seed, double staleReadRate, boolean closingReads) {

    public static final long DEFAULT_TXN_COUNT = 1_000;
    public static final int DEFAULT_CONCURRENCY = 10;
    public static final long DEFAULT_SEED = 0;

    /** Keeps event indices and counts far from overflow. */
    public static final long MAX_TXN_COUNT = Long.MAX_VALUE / 4;

    public GeneratorOptions {
        requireRange("txnCount", txnCount, 0, MAX_TXN_COUNT);
        requireRange("concurrency", concurrency, 1, Integer.MAX_VALUE);
        Objects.requireNonNull(shape, "shape");
        requireProbability("failRate", failRate);
        requireProbability("infoRate", infoRate);
        if (failRate + infoRate > 1) {
            throw new IllegalArgumentException(GeneratorMessages.faultRates(failRate, infoRate));
        }
        requireProbability("staleReadRate", staleReadRate);
    }

    /** Options without stale reads or closing reads: the store stays strict-serializable. */
    public GeneratorOptions(long txnCount, int concurrency, int keyCount, int minTxnLength, int maxTxnLength,
                            int maxWritesPerKey, double readProbability, KeyDistribution keyDistribution,
                            double failRate, double infoRate, long seed) {
        this(txnCount, concurrency, new TxnShape(keyCount, minTxnLength, maxTxnLength, maxWritesPerKey,
                readProbability, keyDistribution), failRate, infoRate, seed, 0, false);
    }

    /**
     * 1,000 fault-free transactions by 10 clients in Elle's shape ({@link TxnShape#ELLE}), seed 0,
     * without closing reads.
     */
    public static GeneratorOptions defaults() {
        return new GeneratorOptions(DEFAULT_TXN_COUNT, DEFAULT_CONCURRENCY, TxnShape.ELLE, 0, 0, DEFAULT_SEED, 0,
                false);
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

    private static void requireRange(String option, long value, long min, long max) {
        if (value < min) {
            throw new IllegalArgumentException(GeneratorMessages.atLeast(option, min, value));
        }
        if (value > max) {
            throw new IllegalArgumentException(GeneratorMessages.atMost(option, max, value));
        }
    }

    private static void requireProbability(String option, double value) {
        // Written so that NaN fails too.
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(GeneratorMessages.probability(option, value));
        }
    }

    /** Builds {@link GeneratorOptions}; the records' constructors check the values. */
    public static final class Builder {
        private long txnCount;
        private int concurrency;
        private TxnShape.Builder shape;
        private double failRate;
        private double infoRate;
        private long seed;
        private double staleReadRate;
        private boolean closingReads;

        private Builder(GeneratorOptions from) {
            txnCount = from.txnCount;
            concurrency = from.concurrency;
            shape = from.shape.toBuilder();
            failRate = from.failRate;
            infoRate = from.infoRate;
            seed = from.seed;
            staleReadRate = from.staleReadRate;
            closingReads = from.closingReads;
        }

        public Builder txnCount(long value) {
            txnCount = value;
            return this;
        }

        public Builder concurrency(int value) {
            concurrency = value;
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

        /** Sets both length bounds at once, so a range may move past the current one in a single step. */
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

        /** Sets both fault rates at once, so their sum is checked against the new pair only. */
        public Builder faultRates(double newFailRate, double newInfoRate) {
            failRate = newFailRate;
            infoRate = newInfoRate;
            return this;
        }

        public Builder failRate(double value) {
            failRate = value;
            return this;
        }

        public Builder infoRate(double value) {
            infoRate = value;
            return this;
        }

        public Builder seed(long value) {
            seed = value;
            return this;
        }

        /** See {@link GeneratorOptions#staleReadRate()}. */
        public Builder staleReadRate(double value) {
            staleReadRate = value;
            return this;
        }

        /** See {@link GeneratorOptions#closingReads()}. */
        public Builder closingReads(boolean value) {
            closingReads = value;
            return this;
        }

        public GeneratorOptions build() {
            return new GeneratorOptions(txnCount, concurrency, shape.build(), failRate, infoRate, seed, staleReadRate,
                    closingReads);
        }
    }
}
