package io.isowatch.cli;

import io.isowatch.agent.client.EmbeddedStoreClient;
import io.isowatch.agent.recorder.HistoryRecorder;
import io.isowatch.agent.store.EmbeddedStore;
import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.agent.workload.WorkloadOptions;
import io.isowatch.agent.workload.WorkloadResult;
import io.isowatch.agent.workload.WorkloadRunner;
import io.isowatch.anomaly.Finding;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.explain.FindingText;
import io.isowatch.explain.VerdictText;
import io.isowatch.history.AtomTable;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.file.JsonLinesAlertSink;
import io.isowatch.sinks.file.JsonLinesSinkOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code isowatch demo}: clients run a list-append workload against the embedded transactional
 * store at the chosen isolation level, and every event they record goes straight into the
 * incremental checker, which prints each anomaly the moment it is proven. Nothing needs setting
 * up. (Kafka and the Flink job join this path with the stream-job work.)
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Runs clients against the embedded store at an isolation level and checks their history live:"
                + " each alert as it is proven, progress every second, the verdict at the end.",
                "Under snapshot-isolation the checker shows write skew (G2-item) within seconds; under "
                        + "strict-serializable or serializable (with -c serializable) it stays silent."})
final class DemoCommand implements Callable<Integer> {

    private static final int FULL_ALERTS = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--isolation", defaultValue = "snapshot-isolation", paramLabel = "LEVEL",
            description = "The embedded store's isolation: strict-serializable, serializable, snapshot-isolation, "
                    + "read-committed or read-uncommitted (default: ${DEFAULT-VALUE}).")
    String isolation;

    @Option(names = {"-c", "--consistency-models"}, defaultValue = "strict-serializable", split = ",",
            paramLabel = "MODELS", description = "Models to check against (default: ${DEFAULT-VALUE}).")
    Set<String> models;

    @Option(names = "--rate", defaultValue = "2000", paramLabel = "TXN_PER_S",
            description = "Transactions per second over all clients (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--duration", defaultValue = "10", paramLabel = "SECONDS",
            description = "How long to run (default: ${DEFAULT-VALUE}).")
    int duration;

    @Option(names = "--concurrency", defaultValue = "8", paramLabel = "N",
            description = "Client threads (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--keys", defaultValue = "5", paramLabel = "K",
            description = "Keys active at any moment; few keys mean contention (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--seed", defaultValue = "0", paramLabel = "S", description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--alerts-file", paramLabel = "FILE",
            description = "Also append each alert to FILE as one line of JSON: its stable id, type, models, "
                    + "detection time and delay, and the finding with its explanation.")
    Path alertsFile;

    private int alerts;
    private JsonLinesAlertSink alertsSink;
    /** System.nanoTime() when the recorder's clock started: ops' times count from about here. */

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        IsolationLevel level;
        try {
            level = IsolationLevel.fromName(isolation);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--isolation: " + e.getMessage());
        }
        if (alertsFile != null) {
            try {
                alertsSink = new JsonLinesSinkOptions(alertsFile).open();
            } catch (UncheckedIOException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--alerts-file: " + e.getMessage());
            }
        }
        try {
            return run(out, level);
        } finally {
            if (alertsSink != null) {
                alertsSink.close();
            }
        }
    }

    private int run(PrintWriter out, IsolationLevel level) throws InterruptedException {
        AtomTable atoms = new AtomTable();
        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().withModels(models), atoms, f -> alert(out, f, atoms));
        CheckingEventLog log = new CheckingEventLog(checker);
        // Each read and write takes a moment, as over a network, so transactions overlap.
        EmbeddedStore store = new EmbeddedStore(StoreOptions.of(level).withOperationDelayNanos(200_000).withSeed(seed));
        WorkloadOptions workload = WorkloadOptions.defaults().withConcurrency(concurrency).withKeyCount(keys)
                .withRate(rate).withDuration(Duration.ofSeconds(duration)).withReadProbability(0.5).withSeed(seed);
        out.printf("isowatch demo: %d clients at %,d txn/s for %d s against the embedded store at %s; "
                + "checking %s live%n%n", concurrency, rate, duration, isolation, String.join(", ", models));
        out.flush();
        WorkloadResult result;
        try (HistoryRecorder recorder = HistoryRecorder.builder("demo", log).build()) {
            result = new WorkloadRunner(workload, EmbeddedStoreClient.factory(store), recorder)
                    .onProgress(p -> log.quietly(() -> {
                        out.printf("  [%5.1f s] %,d txns (%,.0f txn/s: %,d ok, %,d fail, %,d info), %,d anomalies so far%n",
                                p.elapsed().toMillis() / 1000.0, p.txns(), p.txnPerSecond(), p.ok(), p.fail(), p.info(),
                                checker.findingCount());
                        out.flush();
                    }), Duration.ofSeconds(1), () -> 0)
                    .run();
        }
        Verdict verdict;
        synchronized (log) {
            verdict = checker.finish();
        }
        out.println();
        out.println("Verdict (" + String.join(", ", models) + "):");
        out.println(VerdictText.render(verdict, atoms, 1));
        out.printf("%,d transactions (%,d events) run and checked.%n", result.txns(), verdict.stats().ops());
        return ExitCodes.VALID;
    }

    private void alert(PrintWriter out, Finding f, AtomTable atoms) {
        alerts++;
        if (alertsSink != null) {
            long now = System.currentTimeMillis();
            alertsSink.accept(Alert.of(f, models, now, Alert.delayMillis(f, now), atoms));
        }
        out.println("ALERT " + FindingText.title(f));
        if (alerts <= FULL_ALERTS) {
            out.println(FindingText.render(f, atoms));
            out.println();
        }
        out.flush();
    }
}
