package io.isowatch.agentcli;

import io.isowatch.gen.KeyDistribution;
import io.isowatch.gen.TxnShape;
import io.isowatch.gen.TxnShapeDeclarations;
import picocli.CommandLine.Option;

/**
 * The shape of Elle-style transactions, the one picocli mixin for it, shared by {@code agent run}
 * and the full launcher's {@code gen} and {@code demo}. Names, defaults and descriptions are
 * {@link TxnShapeDeclarations}' (descriptionKey); {@link #toShape()} gives the one type the
 * generator, the agent's workload and the demo share.
 */
public final class TxnShapeFlags {

    @Option(names = "--keys", descriptionKey = "keys", paramLabel = "K")
    int keys;

    @Option(names = "--max-writes-per-key", descriptionKey = "max-writes-per-key", paramLabel = "W")
    int maxWritesPerKey;

    @Option(names = "--min-txn-length", descriptionKey = "min-txn-length", paramLabel = "L")
    int minTxnLength;

    @Option(names = "--max-txn-length", descriptionKey = "max-txn-length", paramLabel = "L")
    int maxTxnLength;

    @Option(names = "--read-probability", descriptionKey = "read-probability", paramLabel = "P")
    double readProbability;

    @Option(names = "--key-distribution", descriptionKey = "key-distribution", paramLabel = "D")
    String keyDistribution;

    /** {@code --keys} as given, before any check. */
    public int keys() {
        return keys;
    }

    /**
     * The shape the flags give.
     *
     * @throws IllegalArgumentException naming the flag and the value it cannot take
     */
    public TxnShape toShape() {
        TxnShapeDeclarations.KEYS.type().check("--keys", keys);
        TxnShapeDeclarations.MAX_WRITES_PER_KEY.type().check("--max-writes-per-key", maxWritesPerKey);
        TxnShapeDeclarations.MIN_TXN_LENGTH.type().check("--min-txn-length", minTxnLength);
        TxnShapeDeclarations.MAX_TXN_LENGTH.type().check("--max-txn-length", maxTxnLength);
        TxnShapeDeclarations.READ_PROBABILITY.type().check("--read-probability", readProbability);
        return new TxnShape(keys, minTxnLength, maxTxnLength, maxWritesPerKey, readProbability,
                KeyDistribution.fromElleName(keyDistribution));
    }
}
