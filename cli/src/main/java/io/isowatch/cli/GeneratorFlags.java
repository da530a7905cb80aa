package io.isowatch.cli;

import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.KeyDistribution;
import picocli.CommandLine.Option;

/** The simulated workload's options, shared by {@code gen} and {@code demo}. */
final class GeneratorFlags {

    @Option(names = {"-n", "--txns"}, defaultValue = "1000", paramLabel = "N",
            description = "Transactions to run (default: ${DEFAULT-VALUE}).")
    long txns;

    @Option(names = "--concurrency", defaultValue = "10", paramLabel = "C",
            description = "Client processes running at once (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--keys", defaultValue = "10", paramLabel = "K",
            description = "Keys active at any moment (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--max-writes-per-key", defaultValue = "32", paramLabel = "W",
            description = "Appends a key takes before it is retired for a fresh one (default: ${DEFAULT-VALUE}).")
    int maxWritesPerKey;

    @Option(names = "--min-txn-length", defaultValue = "1", paramLabel = "L",
            description = "Fewest micro-ops per transaction (default: ${DEFAULT-VALUE}).")
    int minTxnLength;

    @Option(names = "--max-txn-length", defaultValue = "4", paramLabel = "L",
            description = "Most micro-ops per transaction (default: ${DEFAULT-VALUE}).")
    int maxTxnLength;

    @Option(names = "--read-probability", defaultValue = "0.5", paramLabel = "P",
            description = "Chance a micro-op is a read rather than an append (default: ${DEFAULT-VALUE}).")
    double readProbability;

    @Option(names = "--key-distribution", defaultValue = "exponential", paramLabel = "D",
            description = "uniform or exponential, as Elle's generator (default: ${DEFAULT-VALUE}).")
    String keyDistribution;

    @Option(names = "--fail-rate", defaultValue = "0", paramLabel = "P",
            description = "Chance a transaction aborts and completes :fail (default: ${DEFAULT-VALUE}).")
    double failRate;

    @Option(names = "--info-rate", defaultValue = "0", paramLabel = "P",
            description = "Chance a transaction's outcome is unknown (:info) (default: ${DEFAULT-VALUE}).")
    double infoRate;

    @Option(names = "--stale-read-rate", defaultValue = "0", paramLabel = "P",
            description = "Fault: chance a read is served from one of the last three versions of the key, as a "
                    + "lagging replica would (default: ${DEFAULT-VALUE}, a strict-serializable store).")
    double staleReadRate;

    @Option(names = "--seed", defaultValue = "0", paramLabel = "S",
            description = "Random seed; equal options and seed give the same history (default: ${DEFAULT-VALUE}).")
    long seed;

    GeneratorOptions toOptions() {
        return GeneratorOptions.defaults()
                .withTxnCount(txns)
                .withConcurrency(concurrency)
                .withKeyCount(keys)
                .withMaxWritesPerKey(maxWritesPerKey)
                .withTxnLength(minTxnLength, maxTxnLength)
                .withReadProbability(readProbability)
                .withKeyDistribution(KeyDistribution.fromElleName(keyDistribution))
                .withFaultRates(failRate, infoRate)
                .withSeed(seed)
                .withStaleReadRate(staleReadRate);
    }
}
