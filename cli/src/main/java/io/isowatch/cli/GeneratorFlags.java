package io.isowatch.cli;

import io.isowatch.agentcli.TxnShapeFlags;
import io.isowatch.gen.GeneratorOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The simulated workload's options of {@code gen}. */
final class GeneratorFlags {

    @Mixin
    TxnShapeFlags shape;

    @Option(names = {"-n", "--txns"}, descriptionKey = "txns", paramLabel = "N")
    long txns;

    @Option(names = "--concurrency", descriptionKey = "concurrency", paramLabel = "C")
    int concurrency;

    @Option(names = "--fail-rate", descriptionKey = "fail-rate", paramLabel = "P")
    double failRate;

    @Option(names = "--info-rate", descriptionKey = "info-rate", paramLabel = "P")
    double infoRate;

    @Option(names = "--stale-read-rate", descriptionKey = "stale-read-rate", paramLabel = "P")
    double staleReadRate;

    @Option(names = "--no-closing-reads", descriptionKey = "no-closing-reads")
    boolean noClosingReads;

    @Option(names = "--seed", descriptionKey = "seed", paramLabel = "S")
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
