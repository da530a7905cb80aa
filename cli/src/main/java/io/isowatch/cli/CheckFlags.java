package io.isowatch.cli;

import io.isowatch.checker.CheckerDeclarations;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.CheckerOptionsReader;
import io.isowatch.checker.RegisterOptions;
import io.isowatch.checker.Validity;
import io.isowatch.checker.Verdict;
import io.isowatch.checker.Workload;
import io.isowatch.config.Durations;
import io.isowatch.explain.Notation;
import io.isowatch.explain.VerdictJson;
import io.isowatch.explain.VerdictText;
import io.isowatch.history.AtomTable;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The options of {@code check} that decide the verdict and how it is printed, shared by
 * {@code check} and {@code replay} (a picocli mixin), so both accept the same flags and print
 * the same output: both print a typed verdict through {@link #print}. Pictures ({@code -o DIR})
 * are {@code check}'s alone.
 */
final class CheckFlags {

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    // The checker's flags: names, defaults and descriptions are CheckerDeclarations' (descriptionKey).

    @Option(names = {"-m", "--model"}, descriptionKey = "workload", paramLabel = "WORKLOAD")
    String model;

    @Option(names = "--wfr-keys", descriptionKey = "wfr-keys")
    boolean wfrKeys;

    @Option(names = "--sequential-keys", descriptionKey = "sequential-keys")
    boolean sequentialKeys;

    @Option(names = "--linearizable-keys", descriptionKey = "linearizable-keys")
    boolean linearizableKeys;

    @Option(names = {"-c", "--consistency-models"}, descriptionKey = "consistency-models", paramLabel = "MODELS",
            split = ",")
    List<String> models;

    @Option(names = {"-a", "--anomalies"}, descriptionKey = "anomalies", split = ",", paramLabel = "ANOMALIES")
    List<String> anomalies = new ArrayList<>();

    @Option(names = {"--format", "--output"}, descriptionKey = "format", paramLabel = "FORMAT")
    OutputFormat format;

    @Option(names = "--reorder-window", descriptionKey = "reorder-window", paramLabel = "N")
    int reorderWindow;

    @Option(names = "--cycle-search-budget", descriptionKey = "cycle-search-budget", paramLabel = "EDGES")
    long cycleSearchBudget;

    @Option(names = {"-s", "--cycle-search-timeout"}, descriptionKey = "cycle-search-timeout", paramLabel = "D")
    String cycleSearchTimeout;

    @Option(names = "--max-shown", descriptionKey = "max-shown", paramLabel = "N")
    int maxShown;

    @Option(names = {"-q", "--quiet"}, descriptionKey = "quiet")
    boolean quiet;

    /** Writes JSON verdicts; leaves the output open when a generator closes. */
    private static final JsonFactory JSON = JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

    /** Output formats. */
    enum OutputFormat { text, json }

    /** The options {@link #checkerOptions()} parsed, once the flags are set. */
    private CheckerOptions parsed;

    /**
     * The checker's options from the typed flags, checked as the job checks its own keys; a bad
     * name or value is a usage error naming the flag. Checks the printing options too, which
     * every caller prints with. A bare number given to {@code -s} is milliseconds (elle-cli's
     * meaning) where the job reads seconds: said once on stderr unless {@code -q} (decision 0018).
     */
    CheckerOptions checkerOptions() {
        if (parsed == null) {
            parsed = parseCheckerOptions(); // once: the printing asks again, and the -s note is said once
        }
        return parsed;
    }

    private CheckerOptions parseCheckerOptions() {
        if (maxShown < 0) {
            throw usage("--max-shown: expected a whole number from 0 up, got " + maxShown);
        }
        try {
            Duration timeout = CheckerDeclarations.CYCLE_SEARCH_TIMEOUT.parseFlag(FLAGS.get(CheckerOptionsReader
                    .CYCLE_SEARCH_TIMEOUT), cycleSearchTimeout);
            if (Durations.isBareNumber(cycleSearchTimeout) && !timeout.isZero() && !quiet) {
                PrintWriter err = spec.commandLine().getErr();
                err.println("isowatch: -s " + cycleSearchTimeout.trim() + " is read as milliseconds (elle-cli's unit; "
                        + "the job's cycle-search-timeout reads a bare number as seconds); write "
                        + Durations.format(timeout) + " to say so");
                err.flush();
            }
            return CheckerOptionsReader.typed(FLAGS::get)
                    .workload(model)
                    .registers(new RegisterOptions(wfrKeys, sequentialKeys, linearizableKeys))
                    .models(models)
                    .anomalies(anomalies)
                    .reorderWindow(reorderWindow)
                    .cycleSearchBudget(cycleSearchBudget)
                    .cycleSearchTimeout(timeout)
                    .build();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /** The flag that sets each of the reader's keys, for its messages. */
    private static final Map<String, String> FLAGS = Map.of(
            CheckerOptionsReader.WORKLOAD, "-m",
            CheckerOptionsReader.CONSISTENCY_MODELS, "-c",
            CheckerOptionsReader.ANOMALIES, "-a",
            CheckerOptionsReader.REORDER_WINDOW, "--reorder-window",
            CheckerOptionsReader.CYCLE_SEARCH_BUDGET, "--cycle-search-budget",
            CheckerOptionsReader.CYCLE_SEARCH_TIMEOUT, "--cycle-search-timeout",
            CheckerOptionsReader.WFR_KEYS, "--wfr-keys",
            CheckerOptionsReader.SEQUENTIAL_KEYS, "--sequential-keys",
            CheckerOptionsReader.LINEARIZABLE_KEYS, "--linearizable-keys");

    /** Prints one file's verdict as {@code check} does. */
    void print(PrintWriter out, Path file, Verdict v, AtomTable atoms, double seconds, Notation n) {
        if (format == OutputFormat.json) {
            printJson(out, file, v, atoms, seconds, n);
        } else {
            out.println(file + "\t" + v.valid().elleName());
            if (v.valid() != Validity.TRUE) {
                out.println(VerdictText.render(v, atoms, maxShown, n,
                        io.isowatch.anomaly.ConsistencyModel.names(checkerOptions().consistencyModels())));
            }
            printStats(out, file, v.stats().txns(), v.stats().ops(), seconds);
        }
    }

    /**
     * The verdict as one JSON line, {@code "file"} first, written straight to {@code out}: a
     * verdict about long reads may be tens of megabytes, and built as a string first it took
     * several times that in memory.
     */
    private static void printJson(PrintWriter out, Path file, Verdict v, AtomTable atoms, double seconds, Notation n) {
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("file", file.toString());
            VerdictJson.writeFields(g, v, atoms, seconds, n);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing the verdict of " + file + " failed", e);
        }
        out.println();
    }

    private static void printStats(PrintWriter out, Path file, long txns, long ops, double seconds) {
        out.printf("%s: %,d txns, %,d events checked in %.2f s%n", file, txns, ops, seconds);
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
