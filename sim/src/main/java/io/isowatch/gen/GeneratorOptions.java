package io.isowatch.gen;

import java.util.Objects;

/**
 * What {@link ListAppendGenerator} generates: how many transactions, how many clients run them,
 * their shape (Elle's {@code wr-txns} options) and the rates of injected faults.
 *
 * <p>The compact constructor rejects bad values with an {@link IllegalArgumentException} naming
 * the option and the value. Start from {@link #defaults()} and change what matters with the
 * {@code with...} methods.
 *
 * @param txnCount        ordinary transactions to invoke; each is completed, so the history holds
 *                        twice as many events, plus two for each closing read
 * @param concurrency     client threads; each runs one transaction at a time
 * @param keyCount        keys active at any moment
 * @param minTxnLength    fewest micro-ops in a transaction, at least 1
 * @param maxTxnLength    most micro-ops in a transaction
 * @param maxWritesPerKey appends a key takes before it is retired for a fresh key
 * @param readProbability chance that a micro-op is a read rather than an append (Elle: 0.5)
 * @param keyDistribution how keys are picked from the active pool
 * @param failRate        chance that a transaction aborts: it has no effect and completes {@code fail}
 * @param infoRate        chance that a transaction's outcome is unknown: it takes effect or not
 *                        (even odds), completes {@code info}, and its process is retired
 * @param seed            seeds every random choice; equal options give equal histories
 * @param staleReadRate   see {@link #withStaleReadRate(double)}
 * @param closingReads    see {@link #withClosingReads(boolean)}
 */
public record GeneratorOptions(long txnCount, int concurrency, int keyCount, int minTxnLength, int maxTxnLength,
                               int maxWritesPerKey, double readProbability, KeyDistribution keyDistribution,
                               double failRate, double infoRate, long seed, double staleReadRate,
                               boolean closingReads) {

    public static final long DEFAULT_TXN_COUNT = 1_000;
    public static final int DEFAULT_CONCURRENCY = 10;
    public static final int DEFAULT_KEY_COUNT = 10;
    public static final int DEFAULT_MIN_TXN_LENGTH = 1;
    public static final int DEFAULT_MAX_TXN_LENGTH = 4;
    public static final int DEFAULT_MAX_WRITES_PER_KEY = 32;
    public static final double DEFAULT_READ_PROBABILITY = 0.5;
    /** Elle's default. */
    public static final KeyDistribution DEFAULT_KEY_DISTRIBUTION = KeyDistribution.EXPONENTIAL;
    public static final long DEFAULT_SEED = 0;

    /** Keeps event indices and counts far from overflow. */
    public static final long MAX_TXN_COUNT = Long.MAX_VALUE / 4;

    public GeneratorOptions {
        requireRange("txnCount", txnCount, 0, MAX_TXN_COUNT);
        requireRange("concurrency", concurrency, 1, Integer.MAX_VALUE);
        requireRange("keyCount", keyCount, 1, Integer.MAX_VALUE);
        requireRange("minTxnLength", minTxnLength, 1, Integer.MAX_VALUE);
        requireRange("maxTxnLength", maxTxnLength, 1, Integer.MAX_VALUE);
        if (maxTxnLength < minTxnLength) {
            throw new IllegalArgumentException(GeneratorMessages.lengthRange(minTxnLength, maxTxnLength));
        }
        requireRange("maxWritesPerKey", maxWritesPerKey, 1, Integer.MAX_VALUE);
        requireProbability("readProbability", readProbability);
        Objects.requireNonNull(keyDistribution, "keyDistribution");
        requireProbability("failRate", failRate);
        requireProbability("infoRate", infoRate);
        if (failRate + infoRate > 1) {
            throw new IllegalArgumentException(GeneratorMessages.faultRates(failRate, infoRate));
        }
        requireProbability("staleReadRate", staleReadRate);
    }

    /** Options without stale reads: the store stays strict-serializable. */
    public GeneratorOptions(long txnCount, int concurrency, int keyCount, int minTxnLength, int maxTxnLength,
                            int maxWritesPerKey, double readProbability, KeyDistribution keyDistribution,
                            double failRate, double infoRate, long seed) {
        this(txnCount, concurrency, keyCount, minTxnLength, maxTxnLength, maxWritesPerKey, readProbability,
                keyDistribution, failRate, infoRate, seed, 0, false);
    }

    /**
     * Makes the store faulty: each read of a key the transaction has not appended to returns,
     * with this probability, an older version of the list (one of the last three), as a lagging
     * replica would. Histories then hold real anomalies (stale reads show up as G-single-item,
     * G2-item and their realtime variants). 0 keeps the store strict-serializable.
     */
    public GeneratorOptions withStaleReadRate(double value) {
        return new GeneratorOptions(txnCount, concurrency, keyCount, minTxnLength, maxTxnLength, maxWritesPerKey,
                readProbability, keyDistribution, failRate, infoRate, seed, value, closingReads);
    }

    /**
     * Closing reads: when a key retires, once no transaction in flight writes to it any more,
     * an idle client reads it in a transaction of its own ({@code [[:r k nil]]}), before any new
     * transaction; and once {@code txnCount} transactions are invoked, every key written and
     * not yet closed is read the same way. Every append that took effect is then read by
     * someone (unless a fault hits the closing read), so the checker never has to place an
     * append nobody read, an inference that waits for the history's end. Closing reads come on
     * top of {@code txnCount}, draw faults like any transaction, and have one micro-op whatever
     * {@code minTxnLength}. Off by default, so existing seeds keep their histories; on in
     * {@code isowatch gen}.
     */
    public GeneratorOptions withClosingReads(boolean value) {
        return new GeneratorOptions(txnCount, concurrency, keyCount, minTxnLength, maxTxnLength, maxWritesPerKey,
                readProbability, keyDistribution, failRate, infoRate, seed, staleReadRate, value);
    }

    /**
     * 1,000 fault-free transactions by 10 clients over 10 exponentially distributed keys, seed 0,
     * without closing reads.
     */
    public static GeneratorOptions defaults() {
        return new GeneratorOptions(DEFAULT_TXN_COUNT, DEFAULT_CONCURRENCY, DEFAULT_KEY_COUNT, DEFAULT_MIN_TXN_LENGTH,
                DEFAULT_MAX_TXN_LENGTH, DEFAULT_MAX_WRITES_PER_KEY, DEFAULT_READ_PROBABILITY, DEFAULT_KEY_DISTRIBUTION,
                0, 0, DEFAULT_SEED);
    }

    public GeneratorOptions withTxnCount(long value) {
        return new GeneratorOptions(value, concurrency, keyCount, minTxnLength, maxTxnLength, maxWritesPerKey,
                readProbability, keyDistribution, failRate, infoRate, seed, staleReadRate, closingReads);
    }

    public GeneratorOptions withConcurrency(int value) {
        return new GeneratorOptions(txnCount, value, keyCount, minTxnLength, maxTxnLength, maxWritesPerKey,
                readProbability, keyDistribution, failRate, infoRate, seed, staleReadRate, closingReads);
    }

    public GeneratorOptions withKeyCount(int value) {
        return new GeneratorOptions(txnCount, concurrency, value, minTxnLength, maxTxnLength, maxWritesPerKey,
                readProbability, keyDistribution, failRate, infoRate, seed, staleReadRate, closingReads);
    }

    /** Sets both length bounds at once, so a range may move past the current one in a single step. */
    public GeneratorOptions withTxnLength(int min, int max) {
        return new GeneratorOptions(txnCount, concurrency, keyCount, min, max, maxWritesPerKey,
                readProbability, keyDistribution, failRate, infoRate, seed, staleReadRate, closingReads);
    }

    public GeneratorOptions withMaxWritesPerKey(int value) {
        return new GeneratorOptions(txnCount, concurrency, keyCount, minTxnLength, maxTxnLength, value,
                readProbability, keyDistribution, failRate, infoRate, seed, staleReadRate, closingReads);
    }

    public GeneratorOptions withReadProbability(double value) {
        return new GeneratorOptions(txnCount, concurrency, keyCount, minTxnLength, maxTxnLength, maxWritesPerKey,
                value, keyDistribution, failRate, infoRate, seed, staleReadRate, closingReads);
    }

    public GeneratorOptions withKeyDistribution(KeyDistribution value) {
        return new GeneratorOptions(txnCount, concurrency, keyCount, minTxnLength, maxTxnLength, maxWritesPerKey,
                readProbability, value, failRate, infoRate, seed, staleReadRate, closingReads);
    }

    /** Sets both fault rates at once, so their sum is checked against the new pair only. */
    public GeneratorOptions withFaultRates(double newFailRate, double newInfoRate) {
        return new GeneratorOptions(txnCount, concurrency, keyCount, minTxnLength, maxTxnLength, maxWritesPerKey,
                readProbability, keyDistribution, newFailRate, newInfoRate, seed, staleReadRate, closingReads);
    }

    public GeneratorOptions withFailRate(double value) {
        return withFaultRates(value, infoRate);
    }

    public GeneratorOptions withInfoRate(double value) {
        return withFaultRates(failRate, value);
    }

    public GeneratorOptions withSeed(long value) {
        return new GeneratorOptions(txnCount, concurrency, keyCount, minTxnLength, maxTxnLength, maxWritesPerKey,
                readProbability, keyDistribution, failRate, infoRate, value, staleReadRate, closingReads);
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
}
