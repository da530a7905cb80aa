package io.isowatch.agentcli;

import picocli.CommandLine.Option;

/**
 * The shape of Elle-style transactions, shared by {@code agent run} and the full launcher's
 * {@code gen} and {@code demo} (a picocli mixin).
 */
public final class TxnShapeFlags {

    @Option(names = "--keys", defaultValue = "10", paramLabel = "K",
            description = "Keys active at any moment (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--max-writes-per-key", defaultValue = "32", paramLabel = "W",
            description = "Writes a key takes before it is retired for a fresh one (default: ${DEFAULT-VALUE}).")
    int maxWritesPerKey;

    @Option(names = "--min-txn-length", defaultValue = "1", paramLabel = "L",
            description = "Fewest micro-ops per transaction (default: ${DEFAULT-VALUE}).")
    int minTxnLength;

    @Option(names = "--max-txn-length", defaultValue = "4", paramLabel = "L",
            description = "Most micro-ops per transaction (default: ${DEFAULT-VALUE}).")
    int maxTxnLength;

    @Option(names = "--read-probability", defaultValue = "0.5", paramLabel = "P",
            description = "Chance a micro-op is a read rather than a write (default: ${DEFAULT-VALUE}).")
    double readProbability;

    @Option(names = "--key-distribution", defaultValue = "exponential", paramLabel = "D",
            description = "uniform or exponential (hot keys), as Elle's generator (default: ${DEFAULT-VALUE}).")
    String keyDistribution;

    public int keys() {
        return keys;
    }

    public int maxWritesPerKey() {
        return maxWritesPerKey;
    }

    public int minTxnLength() {
        return minTxnLength;
    }

    public int maxTxnLength() {
        return maxTxnLength;
    }

    public double readProbability() {
        return readProbability;
    }

    /** The Elle name of the key distribution, as given. */
    public String keyDistribution() {
        return keyDistribution;
    }
}
