package io.isowatch.cli;

import io.isowatch.agentcli.TxnShapeFlags;
import io.isowatch.gen.GeneratorOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The simulated workload's options of {@code gen}. */
final class GeneratorFlags {

    @Mixin
    TxnShapeFlags shape;

    @Option(names = {"-n", "--txns"}, defaultValue = "1000", paramLabel = "N",
            description = "Transactions to run (default: ${DEFAULT-VALUE}).")
    long txns;

    @Option(names = "--concurrency", defaultValue = "10", paramLabel = "C",
            description = "Client processes running at once (default: ${DEFAULT-VALUE}).")
    int concurrency;

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

    @Option(names = "--no-closing-reads",
            description = "Do not read each key once more when it retires (and every key written, at the end). "
                    + "Without them, appends nobody read are placed only when the history ends.")
    boolean noClosingReads;

    @Option(names = "--seed", defaultValue = "0", paramLabel = "S",
            description = "Random seed; equal options and seed give the same history (default: ${DEFAULT-VALUE}).")
    long seed;

    GeneratorOptions toOptions() {
        return GeneratorOptions.defaults().toBuilder()
                .txnCount(txns)
                .concurrency(concurrency)
                .shape(shape.toShape())
                .faultRates(failRate, infoRate)
                .seed(seed)
                .staleReadRate(staleReadRate)
                .closingReads(!noClosingReads)
                .build();
    }
}
