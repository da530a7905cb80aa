package io.isowatch.cli;

import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.CheckerOptionsReader;
import io.isowatch.checker.Validity;
import io.isowatch.checker.Verdict;
import io.isowatch.checker.Workload;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
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

    @Option(names = {"-m", "--model"}, defaultValue = "list-append", paramLabel = "WORKLOAD",
            description = "Workload the history records: list-append or rw-register (default: ${DEFAULT-VALUE}).")
    String model;

    @Option(names = "--wfr-keys", description = "rw-register: assume writes follow reads within a transaction.")
    boolean wfrKeys;

    @Option(names = "--sequential-keys",
            description = "rw-register: assume each key is sequentially consistent (process order orders versions).")
    boolean sequentialKeys;

    @Option(names = "--linearizable-keys",
            description = "rw-register: assume each key is linearizable (realtime order orders versions).")
    boolean linearizableKeys;

    @Option(names = {"-c", "--consistency-models"}, defaultValue = "strict-serializable", paramLabel = "MODELS",
            split = ",", description = "Models the history must satisfy, comma-separated, or 'none' "
            + "(default: ${DEFAULT-VALUE}). Any name Elle knows: read-committed, snapshot-isolation, "
            + "serializable, strong-session-serializable, PL-2, ...")
    List<String> models;

    @Option(names = {"-a", "--anomalies"}, split = ",", paramLabel = "ANOMALIES",
            description = "Further anomalies to prohibit, comma-separated (e.g. G1a,G2-item,lost-update).")
    List<String> anomalies = new ArrayList<>();

    @Option(names = {"--format", "--output"}, defaultValue = "text", paramLabel = "FORMAT",
            description = "Output: text (default) or json (one object per file, one per line).")
    OutputFormat format;

    @Option(names = "--reorder-window", defaultValue = "0", paramLabel = "N",
            description = "Events may arrive up to N positions out of index order (default: ${DEFAULT-VALUE}).")
    int reorderWindow;

    @Option(names = "--cycle-search-budget", defaultValue = "5000000", paramLabel = "EDGES",
            description = "Edges one cycle search may visit before the verdict becomes unknown "
                    + "(default: ${DEFAULT-VALUE}).")
    long cycleSearchBudget;

    @Option(names = {"-s", "--cycle-search-timeout"}, defaultValue = "0", paramLabel = "MS",
            description = "Milliseconds one cycle search may take before the verdict becomes unknown, as Elle's "
                    + ":cycle-search-timeout (default: no limit, so a verdict does not depend on the machine's "
                    + "speed; --cycle-search-budget bounds every search by edges).")
    long cycleSearchTimeoutMillis;

    @Option(names = "--max-shown", defaultValue = "8", paramLabel = "N",
            description = "Text output: findings shown per anomaly type (default: ${DEFAULT-VALUE}).")
    int maxShown;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
    boolean quiet;

    /** Writes JSON verdicts; leaves the output open when a generator closes. */
    private static final JsonFactory JSON = JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

    /** Output formats. */
    enum OutputFormat { text, json }

    /**
     * The checker's options, read as the job reads its own; a bad name or value is a usage error
     * naming the flag. Checks the printing options too, which every caller prints with.
     */
    CheckerOptions checkerOptions() {
        if (maxShown < 0) {
            throw usage("--max-shown: expected a whole number from 0 up, got " + maxShown);
        }
        Map<String, String> raw = new LinkedHashMap<>();
        raw.put(CheckerOptionsReader.WORKLOAD, model);
        raw.put(CheckerOptionsReader.CONSISTENCY_MODELS, String.join(",", models));
        raw.put(CheckerOptionsReader.ANOMALIES, String.join(",", anomalies));
        raw.put(CheckerOptionsReader.REORDER_WINDOW, Integer.toString(reorderWindow));
        raw.put(CheckerOptionsReader.CYCLE_SEARCH_BUDGET, Long.toString(cycleSearchBudget));
        raw.put(CheckerOptionsReader.CYCLE_SEARCH_TIMEOUT, cycleSearchTimeoutMillis + "ms");
        raw.put(CheckerOptionsReader.WFR_KEYS, Boolean.toString(wfrKeys));
        raw.put(CheckerOptionsReader.SEQUENTIAL_KEYS, Boolean.toString(sequentialKeys));
        raw.put(CheckerOptionsReader.LINEARIZABLE_KEYS, Boolean.toString(linearizableKeys));
        try {
            return CheckerOptionsReader.read(raw, FLAGS::get);
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
