package io.isowatch.agent.store;

import java.util.Objects;

/**
 * How an {@link EmbeddedStore} behaves: its isolation level and the faults it injects.
 *
 * @param isolation           the isolation level every transaction runs at
 * @param failRate            fault: chance that a commit is refused and the transaction aborted
 *                            (the client learns it definitely did not commit)
 * @param lostAckRate         fault: chance that a transaction commits but the client gets an
 *                            error instead of the acknowledgement (its outcome is unknown)
 * @param staleReadRate       fault: chance that a read of a key the transaction has not written
 *                            returns one of the three versions before the one it should see, as
 *                            a lagging replica would. Breaks every level's guarantee
 * @param readOnlyLag         serializable only: a read-only transaction reads a snapshot up to
 *                            this many commits old (uniformly chosen); 0 reads the latest
 * @param versionsKept        committed versions kept per key (at least 2); a snapshot read of a
 *                            version already discarded aborts the transaction ("snapshot too old")
 * @param operationDelayNanos simulated latency of each read and write, parked before it runs;
 *                            0 for none. Makes transactions overlap as they do on a real database
 * @param seed                seeds the fault injection and lag choices, per transaction
 */
public record StoreOptions(IsolationLevel isolation, double failRate, double lostAckRate, double staleReadRate,
                           int readOnlyLag, int versionsKept, long operationDelayNanos, long seed) {

    public static final int DEFAULT_READ_ONLY_LAG = 8;
    public static final int DEFAULT_VERSIONS_KEPT = 64;

    public StoreOptions {
        Objects.requireNonNull(isolation, "isolation");
        requireProbability("failRate", failRate);
        requireProbability("lostAckRate", lostAckRate);
        requireProbability("staleReadRate", staleReadRate);
        if (failRate + lostAckRate > 1) {
            throw new IllegalArgumentException("failRate + lostAckRate must be at most 1, got "
                    + failRate + " + " + lostAckRate);
        }
        if (readOnlyLag < 0) {
            throw new IllegalArgumentException("readOnlyLag must be >= 0, got " + readOnlyLag);
        }
        if (versionsKept < 2) {
            throw new IllegalArgumentException("versionsKept must be >= 2, got " + versionsKept);
        }
        if (operationDelayNanos < 0) {
            throw new IllegalArgumentException("operationDelayNanos must be >= 0, got " + operationDelayNanos);
        }
    }

    /** A fault-free store at {@code isolation}, with the default lag and version retention. */
    public static StoreOptions of(IsolationLevel isolation) {
        return new StoreOptions(isolation, 0, 0, 0, DEFAULT_READ_ONLY_LAG, DEFAULT_VERSIONS_KEPT, 0, 0);
    }

    private static void requireProbability(String name, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " must be a probability in [0, 1], got " + value);
        }
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds {@link StoreOptions}; the record's constructor checks the values. */
    public static final class Builder {
        private IsolationLevel isolation;
        private double failRate;
        private double lostAckRate;
        private double staleReadRate;
        private int readOnlyLag;
        private int versionsKept;
        private long operationDelayNanos;
        private long seed;

        private Builder(StoreOptions from) {
            isolation = from.isolation;
            failRate = from.failRate;
            lostAckRate = from.lostAckRate;
            staleReadRate = from.staleReadRate;
            readOnlyLag = from.readOnlyLag;
            versionsKept = from.versionsKept;
            operationDelayNanos = from.operationDelayNanos;
            seed = from.seed;
        }

        public Builder isolation(IsolationLevel value) {
            isolation = value;
            return this;
        }

        public Builder failRate(double value) {
            failRate = value;
            return this;
        }

        public Builder lostAckRate(double value) {
            lostAckRate = value;
            return this;
        }

        public Builder staleReadRate(double value) {
            staleReadRate = value;
            return this;
        }

        public Builder readOnlyLag(int value) {
            readOnlyLag = value;
            return this;
        }

        public Builder versionsKept(int value) {
            versionsKept = value;
            return this;
        }

        public Builder operationDelayNanos(long value) {
            operationDelayNanos = value;
            return this;
        }

        public Builder seed(long value) {
            seed = value;
            return this;
        }

        /** All three fault rates at once, so their constraints are checked against the new ones only. */
        public Builder faults(double newFailRate, double newLostAckRate, double newStaleReadRate) {
            failRate = newFailRate;
            lostAckRate = newLostAckRate;
            staleReadRate = newStaleReadRate;
            return this;
        }

        public StoreOptions build() {
            return new StoreOptions(isolation, failRate, lostAckRate, staleReadRate, readOnlyLag, versionsKept,
                    operationDelayNanos, seed);
        }
    }
}
