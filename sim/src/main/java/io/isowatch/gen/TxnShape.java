package io.isowatch.gen;

import java.util.Objects;

/**
 * The shape of Elle-style transactions (Elle's {@code wr-txns} options), one type for the
 * simulated generator ({@link GeneratorOptions}), the agent's workload and the demo. Declared in
 * {@link TxnShapeDeclarations}, whose defaults {@link #ELLE} holds.
 *
 * @param keyCount        keys active at any moment
 * @param minTxnLength    fewest micro-ops in a transaction, at least 1
 * @param maxTxnLength    most micro-ops in a transaction, at least {@code minTxnLength}
 * @param maxWritesPerKey writes a key takes before it is retired for a fresh key
 * @param readProbability chance that a micro-op is a read rather than a write (Elle: 0.5)
 * @param keyDistribution how a micro-op picks a key among the active ones (exponential: hot keys)
 */
public record TxnShape(int keyCount, int minTxnLength, int maxTxnLength, int maxWritesPerKey,
                       double readProbability, KeyDistribution keyDistribution) {

    /** Elle's defaults: 10 exponentially distributed keys, 1 to 4 micro-ops, 32 writes per key, reads half the time. */
    public static final TxnShape ELLE = new TxnShape(TxnShapeDeclarations.KEYS.defaultValue(),
            TxnShapeDeclarations.MIN_TXN_LENGTH.defaultValue(), TxnShapeDeclarations.MAX_TXN_LENGTH.defaultValue(),
            TxnShapeDeclarations.MAX_WRITES_PER_KEY.defaultValue(),
                    TxnShapeDeclarations.READ_PROBABILITY.defaultValue(),
            KeyDistribution.fromElleName(TxnShapeDeclarations.KEY_DISTRIBUTION.defaultValue()));

    public TxnShape {
        atLeast("keyCount", keyCount, 1);
        atLeast("minTxnLength", minTxnLength, 1);
        atLeast("maxTxnLength", maxTxnLength, 1);
        if (maxTxnLength < minTxnLength) {
            throw new IllegalArgumentException(GeneratorMessages.lengthRange(minTxnLength, maxTxnLength));
        }
        atLeast("maxWritesPerKey", maxWritesPerKey, 1);
        // Written so that NaN fails too.
        if (!(readProbability >= 0 && readProbability <= 1)) {
            throw new IllegalArgumentException(GeneratorMessages.probability("readProbability", readProbability));
        }
        Objects.requireNonNull(keyDistribution, "keyDistribution");
    }

    /** A builder holding this shape, to change some of it. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    private static void atLeast(String option, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(GeneratorMessages.atLeast(option, min, value));
        }
    }

    /** Builds a {@link TxnShape}; the record's constructor checks the values. */
    public static final class Builder {
        private int keyCount;
        private int minTxnLength;
        private int maxTxnLength;
        private int maxWritesPerKey;
        private double readProbability;
        private KeyDistribution keyDistribution;

        private Builder(TxnShape from) {
            keyCount = from.keyCount;
            minTxnLength = from.minTxnLength;
            maxTxnLength = from.maxTxnLength;
            maxWritesPerKey = from.maxWritesPerKey;
            readProbability = from.readProbability;
            keyDistribution = from.keyDistribution;
        }

        public Builder keyCount(int value) {
            keyCount = value;
            return this;
        }

        /** Sets both length bounds at once, so a range may move past the current one in a single step. */
        public Builder txnLength(int min, int max) {
            minTxnLength = min;
            maxTxnLength = max;
            return this;
        }

        public Builder maxWritesPerKey(int value) {
            maxWritesPerKey = value;
            return this;
        }

        public Builder readProbability(double value) {
            readProbability = value;
            return this;
        }

        public Builder keyDistribution(KeyDistribution value) {
            keyDistribution = value;
            return this;
        }

        public TxnShape build() {
            return new TxnShape(keyCount, minTxnLength, maxTxnLength, maxWritesPerKey, readProbability,
                    keyDistribution);
        }
    }
}
