package io.isowatch.agent.workload;

import io.isowatch.checker.Workload;

import io.isowatch.gen.KeyDistribution;

import java.time.Duration;
import java.util.Objects;

/**
 * What the {@link WorkloadRunner} runs: the transaction shape (Elle's {@code wr-txns} options),
 * how many clients, how fast and for how long.
 *
 * <p>Start from {@link #defaults()} and change what matters with the {@code with...} methods; the
 * compact constructor rejects bad values naming the option.
 *
 * @param workload        list-append or rw-register
 * @param concurrency     worker threads, each one client running one transaction at a time
 * @param rate            transactions per second over all workers; 0 for as fast as possible
 * @param duration        how long to run; {@link Duration#ZERO} for no time limit
 * @param txnLimit        transactions to invoke at most; 0 for no limit
 * @param keyCount        keys active at any moment
 * @param minTxnLength    fewest micro-ops in a transaction, at least 1
 * @param maxTxnLength    most micro-ops in a transaction
 * @param maxWritesPerKey writes a key takes before it is retired for a fresh key
 * @param readProbability chance that a micro-op is a read rather than a write
 * @param keyDistribution how each micro-op picks a key among the active ones (exponential: hot keys)
 * @param seed            seeds the transaction generator
 * @param firstKey        the first key id; keys are numbered upwards from it. A run that
 *                        continues an earlier history against a fresh store starts past the
 *                        keys that history used
 * @param closingReads    read each key once more when it retires, after every transaction
 *                        generated with a write to it has completed, and at the end every key
 *                        written and not yet so read (see {@link WorkloadRunner}); on by default
 */
public record WorkloadOptions(Workload workload, int concurrency, double rate, Duration duration, long txnLimit,
                              int keyCount, int minTxnLength, int maxTxnLength, int maxWritesPerKey,
                              double readProbability, KeyDistribution keyDistribution, long seed,
                              long firstKey, boolean closingReads) {

    public WorkloadOptions {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(keyDistribution, "keyDistribution");
        atLeast("concurrency", concurrency, 1);
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate must be >= 0 transactions per second (0: unlimited), got " + rate);
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration must not be negative, got " + duration);
        }
        atLeast("txnLimit", txnLimit, 0);
        atLeast("keyCount", keyCount, 1);
        atLeast("minTxnLength", minTxnLength, 1);
        atLeast("maxTxnLength", maxTxnLength, minTxnLength);
        atLeast("maxWritesPerKey", maxWritesPerKey, 1);
        atLeast("firstKey", firstKey, 0);
        if (!(readProbability >= 0 && readProbability <= 1)) {
            throw new IllegalArgumentException("readProbability must be in [0, 1], got " + readProbability);
        }
    }

    /**
     * Elle's defaults for list-append: 10 exponentially distributed keys, 1 to 4 micro-ops, 32
     * writes per key, reads half the time; 10 clients, unlimited rate, 10 seconds, seed 0;
     * closing reads on.
     */
    public static WorkloadOptions defaults() {
        return new WorkloadOptions(Workload.LIST_APPEND, 10, 0, Duration.ofSeconds(10), 0, 10, 1, 4, 32, 0.5,
                KeyDistribution.EXPONENTIAL, 0, 0, true);
    }

    public WorkloadOptions withWorkload(Workload value) {
        return new WorkloadOptions(value, concurrency, rate, duration, txnLimit, keyCount, minTxnLength,
                maxTxnLength, maxWritesPerKey, readProbability, keyDistribution, seed, firstKey, closingReads);
    }

    public WorkloadOptions withConcurrency(int value) {
        return new WorkloadOptions(workload, value, rate, duration, txnLimit, keyCount, minTxnLength,
                maxTxnLength, maxWritesPerKey, readProbability, keyDistribution, seed, firstKey, closingReads);
    }

    public WorkloadOptions withRate(double value) {
        return new WorkloadOptions(workload, concurrency, value, duration, txnLimit, keyCount, minTxnLength,
                maxTxnLength, maxWritesPerKey, readProbability, keyDistribution, seed, firstKey, closingReads);
    }

    public WorkloadOptions withDuration(Duration value) {
        return new WorkloadOptions(workload, concurrency, rate, value, txnLimit, keyCount, minTxnLength,
                maxTxnLength, maxWritesPerKey, readProbability, keyDistribution, seed, firstKey, closingReads);
    }

    public WorkloadOptions withTxnLimit(long value) {
        return new WorkloadOptions(workload, concurrency, rate, duration, value, keyCount, minTxnLength,
                maxTxnLength, maxWritesPerKey, readProbability, keyDistribution, seed, firstKey, closingReads);
    }

    public WorkloadOptions withKeyCount(int value) {
        return new WorkloadOptions(workload, concurrency, rate, duration, txnLimit, value, minTxnLength,
                maxTxnLength, maxWritesPerKey, readProbability, keyDistribution, seed, firstKey, closingReads);
    }

    /** Sets both length bounds at once. */
    public WorkloadOptions withTxnLength(int min, int max) {
        return new WorkloadOptions(workload, concurrency, rate, duration, txnLimit, keyCount, min, max,
                maxWritesPerKey, readProbability, keyDistribution, seed, firstKey, closingReads);
    }

    public WorkloadOptions withMaxWritesPerKey(int value) {
        return new WorkloadOptions(workload, concurrency, rate, duration, txnLimit, keyCount, minTxnLength,
                maxTxnLength, value, readProbability, keyDistribution, seed, firstKey, closingReads);
    }

    public WorkloadOptions withReadProbability(double value) {
        return new WorkloadOptions(workload, concurrency, rate, duration, txnLimit, keyCount, minTxnLength,
                maxTxnLength, maxWritesPerKey, value, keyDistribution, seed, firstKey, closingReads);
    }

    public WorkloadOptions withKeyDistribution(KeyDistribution value) {
        return new WorkloadOptions(workload, concurrency, rate, duration, txnLimit, keyCount, minTxnLength,
                maxTxnLength, maxWritesPerKey, readProbability, value, seed, firstKey, closingReads);
    }

    public WorkloadOptions withSeed(long value) {
        return new WorkloadOptions(workload, concurrency, rate, duration, txnLimit, keyCount, minTxnLength,
                maxTxnLength, maxWritesPerKey, readProbability, keyDistribution, value, firstKey, closingReads);
    }

    public WorkloadOptions withFirstKey(long value) {
        return new WorkloadOptions(workload, concurrency, rate, duration, txnLimit, keyCount, minTxnLength,
                maxTxnLength, maxWritesPerKey, readProbability, keyDistribution, seed, value, closingReads);
    }

    public WorkloadOptions withClosingReads(boolean value) {
        return new WorkloadOptions(workload, concurrency, rate, duration, txnLimit, keyCount, minTxnLength,
                maxTxnLength, maxWritesPerKey, readProbability, keyDistribution, seed, firstKey, value);
    }

    private static void atLeast(String option, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(option + " must be >= " + min + ", got " + value);
        }
    }
}
