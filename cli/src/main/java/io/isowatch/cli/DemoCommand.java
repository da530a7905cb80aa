package io.isowatch.cli;

import io.isowatch.agent.AgentOptions;
import io.isowatch.agent.AgentRuntime;
import io.isowatch.agent.client.EmbeddedStoreClient;
import io.isowatch.agent.store.EmbeddedStore;
import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.agent.workload.WorkloadOptions;
import io.isowatch.agent.workload.WorkloadResult;
import io.isowatch.agent.workload.WorkloadRunner;
import io.isowatch.agentcli.BindAddressFlag;
import io.isowatch.agentcli.ConsoleFlags;
import io.isowatch.agentcli.ExitCodes;
import io.isowatch.agentcli.TxnShapeFlags;
import io.isowatch.config.Durations;
import io.isowatch.explain.VerdictText;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.HistoryVerdict;
import io.isowatch.job.JobOptions;
import io.isowatch.job.JobSinks;
import io.isowatch.localpipeline.LocalFlink;
import io.isowatch.localpipeline.LocalPipeline;
import io.isowatch.sinks.ConsoleLink;
import io.isowatch.sinks.file.JsonLinesAlertSink;
import io.isowatch.sinks.file.JsonLinesSinkOptions;
import io.isowatch.ui.FindingStore;
import io.isowatch.ui.server.ConsoleServer;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code isowatch demo}: the whole production path on one machine. Clients run a list-append
 * workload against the embedded transactional store at the chosen isolation level; the agent's
 * recorder writes their history to a Chronicle spool, the shipper sends it to a KRaft broker in
 * this JVM, and the checker job, on a local Flink cluster, reads the topic and prints each alert
 * (through the console sink) the moment it is proven. The findings console ({@code isowatch ui})
 * runs in the same JVM and shows each alert live in a browser, with its cycle picture; its address
 * is printed first, before the broker and the cluster start.
 *
 * <p><b>The end.</b> When the workload stops, the spool is drained to Kafka, the demo waits until
 * the job's source has read everything shipped (the consumer group's offsets, committed at each
 * checkpoint, reach the topic's end), and then stops the job with a drain: Flink's
 * stop-with-savepoint advancing to the end of event time. That final watermark releases the
 * events the {@value #MAX_OUT_OF_ORDERNESS} bound still held back, so the last transactions are
 * checked too, and makes the job emit its verdict, which the summary prints. (Idleness alone
 * would not do it: a watermark never advances while every partition is idle.)
 */
@Command(name = "demo", mixinStandardHelpOptions = true, addMethodSubcommands = false,
        description = {"Runs clients against the embedded store at an isolation level and checks their history live"
                + " through the agent's spool and shipper, Kafka and the Flink checker job, all in this JVM:"
                + " each alert as it is proven, progress every second, the verdict at the end.",
                "Under snapshot-isolation the checker shows write skew (G2-item) within seconds; under "
                        + "strict-serializable or serializable (with -c serializable) it stays silent."})
final class DemoCommand implements Callable<Integer> {

    /**
     * Alerts printed one line each before the rest are only counted: with the progress lines and
     * the verdict, a default run stays under 200 lines however weak the level.
     */
    static final int ALERT_LINES = 40;
    /** Findings the demo's console keeps: every one a demo of a few minutes finds. */
    private static final int CONSOLE_CAPACITY = 100_000;
    private static final String GROUP = "isowatch-demo";
    private static final String AGENT = "demo";
    private static final String COMMAND = "isowatch demo";
    private static final String MAX_OUT_OF_ORDERNESS = "1s";
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(30);
    /** Marks the end of a partition for {@link #waitUntilRead}. */
    private static final String END_OF_INPUT = "isowatch demo: end of input";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--isolation", descriptionKey = "isolation", paramLabel = "LEVEL")
    String isolation;

    @Option(names = {"-c", "--consistency-models"}, descriptionKey = "consistency-models", split = ",",
            paramLabel = "MODELS")
    Set<String> models;

    @Option(names = "--rate", descriptionKey = "rate", paramLabel = "TXN_PER_S")
    int rate;

    @Option(names = "--duration", descriptionKey = "duration", paramLabel = "D")
    String duration;

    @Option(names = "--concurrency", descriptionKey = "concurrency", paramLabel = "N")
    int concurrency;

    @Mixin
    TxnShapeFlags shape;

    @Option(names = "--seed", descriptionKey = "seed", paramLabel = "S")
    long seed;

    @Option(names = "--alerts-file", descriptionKey = "alerts-file", paramLabel = "FILE")
    Path alertsFile;

    @Option(names = {"-v", "--verbose"},
            description = "Print every alert with its whole explanation, and the verdict with one explained finding "
                    + "per anomaly type. By default an alert is one line (type, cycle, its page on the console), "
                    + "the first " + ALERT_LINES + " only, and the verdict counts findings by type.")
    boolean verbose;

    @Mixin
    ConsoleFlags console;

    @Option(names = "--ui-linger", descriptionKey = "ui-linger", paramLabel = "D")
    String uiLinger;

    /** {@code --ui-linger}'s default: until Enter in a terminal, none otherwise. */
    static final String AUTO_LINGER = "auto";
    /** The linger of {@value #AUTO_LINGER} in a terminal: until Enter (or Ctrl-C). */
    static final Duration UNTIL_ENTER = Duration.ofMillis(Long.MAX_VALUE);

    /** Declared without a default ("off"); {@code -1} is off to the code. */
    @Option(names = "--metrics-port", descriptionKey = "metrics-port", defaultValue = "-1", paramLabel = "P")
    int metricsPort;

    @Mixin
    BindAddressFlag bind;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        bind.address(); // an unknown address is a usage error before anything starts
        IsolationLevel level;
        try {
            level = IsolationLevel.fromName(isolation);
        } catch (IllegalArgumentException e) {
            throw usage("--isolation: " + e.getMessage());
        }
        Duration runFor;
        try {
            runFor = Durations.parse("--duration", duration);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        if (runFor.isZero() || rate <= 0 || concurrency <= 0 || shape.keys() <= 0) {
            throw usage("--duration, --rate, --concurrency and --keys must be positive");
        }
        try {
            shape.toShape();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        boolean interactive = System.console() != null;
        Duration linger;
        try {
            linger = linger(uiLinger, interactive);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        // The drain at the end stops the job while a periodic checkpoint may be under way, which
        // Flink declines ("task is closing") and logs as a warning with a 40-line stack trace in
        // the middle of the demo's output. The demo reads its result from the drain's savepoint
        // and verdict, so a declined checkpoint says nothing to its reader: errors only. (Set
        // before the local cluster starts: slf4j-simple reads a logger's level when it is made.)
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.flink.runtime.checkpoint.CheckpointFailureManager",
                "error");
        FindingStore findings = new FindingStore(CONSOLE_CAPACITY);
        ConsoleServer server = console.portZero() ? null : console.start(findings, err);
        ConsoleLink link = server == null ? null : server.link();
        JsonLinesAlertSink file = null;
        try {
            if (alertsFile != null) {
                try {
                    file = new JsonLinesSinkOptions(alertsFile, link).open();
                } catch (UncheckedIOException e) {
                    throw usage("--alerts-file: " + e.getMessage());
                }
            }
            int code = run(out, err, level, runFor,
                    new DemoAlerts(out, verbose, ALERT_LINES, file, server == null ? null : findings, link), link);
            if (server != null && !linger.isZero()) {
                out.printf("The findings console stays at %s/ %s.%n", link.base(), linger.equals(UNTIL_ENTER)
                        ? "until you press Enter (or Ctrl-C)"
                        : "for " + seconds(linger) + (interactive ? "; Enter or Ctrl-C ends it sooner" : "; Ctrl-C ends it sooner"));
                out.flush();
                stayUp(linger, interactive);
            }
            return code;
        } finally {
            if (file != null) {
                file.close();
            }
            if (server != null) {
                server.close();
            }
        }
    }

    private int run(PrintWriter out, PrintWriter err, IsolationLevel level, Duration runFor, DemoAlerts alerts,
                    ConsoleLink link) throws Exception {
        long start = System.nanoTime();
        out.printf("isowatch demo: %d clients at %,d txn/s for %s against the embedded store at %s; "
                + "checking %s live through Kafka and Flink%n", concurrency, rate, seconds(runFor), isolation,
                String.join(", ", models));
        if (link != null) {
            out.printf("  findings console: %s/ (open it to watch findings arrive, each with its cycle)%n", link.base());
        }
        out.flush();
        Map<String, HistoryVerdict> verdicts = new ConcurrentHashMap<>();
        AtomicLong deadLetters = new AtomicLong();
        Consumer<HistoryVerdict> verdictTarget = v -> verdicts.put(v.history(), v);
        Set<Integer> endsRead = ConcurrentHashMap.newKeySet();
        Consumer<DeadLetter> deadLetterTarget = d -> {
            if (END_OF_INPUT.equals(d.raw())) {
                endsRead.add(d.partition());
            } else if (deadLetters.incrementAndGet() <= 3) {
                err.println("isowatch demo: the job rejected an event (" + d.kind() + "): " + d.error());
                err.flush();
            }
        };
        List<String> names = List.of(InProcessSinks.register(alerts), InProcessSinks.register(verdictTarget),
                InProcessSinks.register(deadLetterTarget));
        Path work = Files.createTempDirectory("isowatch-demo-");
        WorkloadResult result;
        boolean drained;
        try (LocalPipeline pipeline = LocalPipeline.start(bind.address(), LocalPipeline.PARTITIONS)) {
            JobOptions options = jobOptions(pipeline, work.resolve("checkpoints"));
            StreamExecutionEnvironment env = pipeline.environment(options, metricsPort, new Configuration());
            pipeline.checkerJob(options,
                    JobSinks.of(List.of(InProcessSinks.alertSink(names.get(0))), InProcessSinks.sink(names.get(2)))
                            .withVerdicts(InProcessSinks.sink(names.get(1))), false)
                    .build(env);
            JobClient job = env.executeAsync("isowatch demo");
            out.printf("  Kafka at %s, checker job %s on a local Flink cluster at %s (started in %.1f s)%s%n%n",
                    pipeline.bootstrapServers(), job.getJobID(), LocalFlink.webUi(env), (System.nanoTime() - start) / 1e9,
                    metricsPort < 0 ? "" : "; Flink metrics at http://" + bind.urlHost() + ":" + metricsPort + "/");
            out.flush();
            try (AgentRuntime agent = AgentRuntime.start(
                    new AgentOptions(AGENT, work.resolve("spool"), null, pipeline.bootstrapServers(), pipeline.topic(), -1))) {
                WorkloadRunner runner = runner(out, level, runFor, agent, alerts);
                try (JobWatch watch = JobWatch.start(job, err, COMMAND, () -> endedEarly(err, job, runner, start))) {
                    result = agent.run(runner);
                    if (watch.ended() != null) {
                        summary(out, result, null, alerts, false, deadLetters.get(), start);
                        return ExitCodes.ERROR;
                    }
                    long unshipped = agent.drain(CATCH_UP_TIMEOUT);
                    if (unshipped > 0) {
                        err.printf("%s: %,d event(s) were not shipped to Kafka%s%n", COMMAND, unshipped,
                                agent.shipperFailure() == null ? "" : " (" + agent.shipperFailure() + ")");
                    }
                    waitUntilRead(err, pipeline, endsRead);
                    watch.close();
                    drained = stop(err, job, work.resolve("savepoint"));
                }
            }
        } finally {
            names.forEach(InProcessSinks::unregister);
            deleteQuietly(work);
        }
        summary(out, result, verdicts.get(AGENT), alerts, drained, deadLetters.get(), start);
        return drained ? ExitCodes.VALID : ExitCodes.ERROR;
    }

    /**
     * Says at once, in one line, that the checker job ended before the run did (failed for good,
     * or cancelled from outside), and stops the clients: nothing after that would be checked.
     */
    private static void endedEarly(PrintWriter err, JobClient job, WorkloadRunner runner, long start) {
        String why;
        try {
            job.getJobExecutionResult().get(5, TimeUnit.SECONDS);
            why = "ended";
        } catch (Exception e) {
            why = e instanceof java.util.concurrent.ExecutionException ? JobWatch.cause(e) : "ended (" + e + ")";
        }
        synchronized (err) {
            err.printf("%s: the checker job stopped after %.1f s (%s); stopping the clients: what they run from now "
                    + "on would go unchecked%n", COMMAND, (System.nanoTime() - start) / 1e9, why);
            err.flush();
        }
        runner.stop();
    }

    private JobOptions jobOptions(LocalPipeline pipeline, Path checkpoints) {
        try {
            return pipeline.jobOptions(Map.of(
                    JobOptions.GROUP_ID, GROUP,
                    JobOptions.MAX_OUT_OF_ORDERNESS, MAX_OUT_OF_ORDERNESS,
                    // No idleness: a drain's final watermark is lost on a source output marked idle,
                    // and both partitions carry events all the time anyway.
                    JobOptions.IDLE_TIMEOUT, "0",
                    // Checkpoints as in production (every 10 s, to files): a failure restarts from
                    // the latest, and the final drain writes a savepoint of any size.
                    JobOptions.CHECKPOINT_DIR, checkpoints.toUri().toString(),
                    JobOptions.STATE_BACKEND, "rocksdb",
                    JobOptions.CONSISTENCY_MODELS, String.join(",", models)));
        } catch (IllegalArgumentException e) {
            throw usage("-c: " + e.getMessage());
        }
    }

    private WorkloadRunner runner(PrintWriter out, IsolationLevel level, Duration runFor, AgentRuntime agent,
                                  DemoAlerts alerts) {
        // Each read and write takes a moment, as over a network, so transactions overlap.
        EmbeddedStore store = new EmbeddedStore(
                StoreOptions.of(level).toBuilder().operationDelayNanos(200_000).seed(seed).build());
        WorkloadOptions workload = WorkloadOptions.defaults().toBuilder().concurrency(concurrency)
                .shape(shape.toShape()).rate(rate).duration(runFor).seed(seed).build();
        return agent.runner(workload, EmbeddedStoreClient.factory(store))
                .onProgress(p -> {
                    if (!p.finished()) {
                        out.printf("  [%5.1f s] %,d txns (%,.0f txn/s: %,d ok, %,d fail, %,d info), %,d alerts so far%n",
                                p.elapsed().toMillis() / 1000.0, p.txns(), p.txnPerSecond(), p.ok(), p.fail(), p.info(),
                                alerts.count());
                        out.flush();
                    }
                }, Duration.ofSeconds(1), agent.backlog());
    }

    /**
     * Waits until the job's source has read everything shipped: a record that is no history event
     * goes at the end of each partition, and the job's first operator (chained to the source)
     * turns it into a dead letter the moment the source reads it, after every record before it.
     */
    private static void waitUntilRead(PrintWriter err, LocalPipeline pipeline, Set<Integer> endsRead)
            throws InterruptedException {
        List<ProducerRecord<byte[], byte[]>> ends = new ArrayList<>();
        for (int p = 0; p < LocalPipeline.PARTITIONS; p++) {
            ends.add(new ProducerRecord<>(pipeline.topic(), p, null, END_OF_INPUT.getBytes(StandardCharsets.UTF_8)));
        }
        pipeline.kafka().send(ends);
        long deadline = System.nanoTime() + CATCH_UP_TIMEOUT.toNanos();
        while (endsRead.size() < LocalPipeline.PARTITIONS && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        if (endsRead.size() < LocalPipeline.PARTITIONS) {
            err.println("isowatch demo: the job had not read every shipped event after " + seconds(CATCH_UP_TIMEOUT)
                    + "; stopping it anyway");
        }
    }

    /** Stops the job with a drain (final watermark, verdict); cancels it if that fails. */
    private static boolean stop(PrintWriter err, JobClient job, Path savepoints) throws Exception {
        try {
            job.stopWithSavepoint(true, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                    .get(CATCH_UP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            job.getJobExecutionResult().get(CATCH_UP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            return true;
        } catch (Exception e) {
            err.println(COMMAND + ": could not drain the checker job (" + JobWatch.cause(e) + "); cancelling it, so the last "
                    + MAX_OUT_OF_ORDERNESS + " of events went unchecked");
            job.cancel().get(CATCH_UP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            return false;
        }
    }

    private void summary(PrintWriter out, WorkloadResult result, HistoryVerdict verdict, DemoAlerts alerts, boolean drained,
                         long deadLetters, long start) {
        out.println();
        if (verdict != null) {
            out.println("Verdict (" + String.join(", ", models) + "):");
            if (verbose) {
                out.println(VerdictText.render(verdict.verdict(), verdict.atoms(), 1));
            } else {
                out.print(VerdictText.brief(verdict.verdict()));
                if (alerts.count() > 0) {
                    out.println("Findings: " + alerts.whereToRead() + ".");
                }
                out.println();
            }
        } else if (alerts.count() > 0) {
            out.println("Verdict of what was checked before the job stopped (" + String.join(", ", models)
                    + "): invalid: " + alerts.byType() + ". The rest of the run went unchecked.");
        } else {
            out.println("Verdict of what was checked before the job stopped: unknown: no anomaly found, but the job"
                    + " did not reach the end of its input" + (drained ? "" : " (not drained)") + ".");
        }
        out.printf("%,d transactions run; %,d alerts; %,d events rejected; %.1f s in all.%n", result.txns(),
                alerts.count(), deadLetters, (System.nanoTime() - start) / 1e9);
        String delays = alerts.delaySummary();
        if (!delays.isEmpty()) {
            out.println(delays + ".");
        }
        out.flush();
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() / 1000.0 + " s";
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A temp directory left behind is harmless.
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /**
     * How long the console stays up after the run: {@code D} as given, or for {@value #AUTO_LINGER}
     * until Enter when the demo runs in a terminal and not at all otherwise, so that a script or CI
     * never waits on a console nobody looks at.
     *
     * @throws IllegalArgumentException naming the flag, for a value that is neither a duration nor {@value #AUTO_LINGER}
     */
    static Duration linger(String value, boolean interactive) {
        if (AUTO_LINGER.equals(value)) {
            return interactive ? UNTIL_ENTER : Duration.ZERO;
        }
        return Durations.parse("--ui-linger", value);
    }

    /**
     * Waits {@code linger}; in a terminal, Enter (or the end of its input) ends the wait sooner.
     * Standard input is not read otherwise: a script's may be closed, which must not cut a
     * linger it asked for.
     */
    private static void stayUp(Duration linger, boolean interactive) {
        if (!interactive) {
            try {
                Thread.sleep(linger.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // ended early: the run is complete, its exit code stands
            }
            return;
        }
        Thread reader = new Thread(() -> {
            try {
                System.in.read();
            } catch (java.io.IOException e) {
                // Standard input is gone: nothing to wait for there.
            }
        }, "isowatch-demo-enter");
        reader.setDaemon(true);
        reader.start();
        try {
            reader.join(linger.equals(UNTIL_ENTER) ? 0 : Math.max(1, linger.toMillis()));
        } catch (InterruptedException e) {
            // Ended early: the run itself is complete, so its exit code stands.
            Thread.currentThread().interrupt();
        }
    }
}
