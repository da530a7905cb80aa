package io.isowatch.agentcli;

import io.isowatch.config.Topics;
import io.isowatch.ui.FindingStore;
import io.isowatch.ui.intake.AlertIntake;
import io.isowatch.ui.intake.AlertsFileFollower;
import io.isowatch.ui.intake.AlertsTopicFollower;
import io.isowatch.ui.server.ConsoleServer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code isowatch ui}: the findings console, a read-only web page of the findings in an alerts
 * file (followed as it grows) and/or the job's alerts topic, live, until interrupted.
 */
@Command(name = "ui", mixinStandardHelpOptions = true, addMethodSubcommands = false,
        description = {"Serves the findings console: the findings of an alerts file and/or the job's alerts topic, "
                + "live in a browser, each with its explanation and cycle picture. Read-only; Ctrl-C stops.",
                "Example: isowatch ui --alerts-file alerts.jsonl",
                "         isowatch ui --bootstrap-servers kafka:9092 --ui-bind 0.0.0.0"})
public final class UiCommand implements Callable<Integer> {

    private static final Duration FILE_POLL = Duration.ofMillis(200);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    ConsoleFlags console;

    @Option(names = "--alerts-file", descriptionKey = "alerts-file", paramLabel = "FILE")
    Path alertsFile;

    @Option(names = "--bootstrap-servers", descriptionKey = "bootstrap-servers", paramLabel = "HOST:PORT,...")
    String bootstrapServers;

    @Option(names = "--alerts-topic", descriptionKey = "alerts-topic", paramLabel = "TOPIC")
    String alertsTopic = Topics.ALERTS;

    @Option(names = "--max-findings", descriptionKey = "max-findings", paramLabel = "N")
    int maxFindings;

    @Override
    public Integer call() throws Exception {
        if (alertsFile == null && (bootstrapServers == null || bootstrapServers.isBlank())) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "give --alerts-file FILE and/or --bootstrap-servers HOST:PORT (the alerts topic's brokers)");
        }
        if (maxFindings < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-findings must be at least 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        FindingStore store = new FindingStore(maxFindings);
        List<AutoCloseable> open = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        try {
            if (alertsFile != null) {
                open.add(AlertsFileFollower.start(alertsFile, new AlertIntake(store, alertsFile.toString()), FILE_POLL));
                sources.add("file " + alertsFile);
            }
            if (bootstrapServers != null && !bootstrapServers.isBlank()) {
                open.add(AlertsTopicFollower.start(bootstrapServers, alertsTopic, new AlertIntake(store, alertsTopic)));
                sources.add("topic " + alertsTopic + " on " + bootstrapServers);
            }
            ConsoleServer server = console.start(store, err);
            open.add(server);
            out.println("isowatch ui: the findings console at " + server.link().base() + "/ (findings of "
                    + String.join(" and ", sources) + "); Ctrl-C stops");
            out.flush();
            waitUntilStopped();
        } finally {
            for (int i = open.size() - 1; i >= 0; i--) {
                open.get(i).close();
            }
        }
        return ExitCodes.VALID;
    }

    /** Blocks until the JVM shuts down (Ctrl-C) or the thread is interrupted (tests). */
    private static void waitUntilStopped() {
        try {
            Thread.currentThread().join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
