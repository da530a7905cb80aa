package io.isowatch.cli;

import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.HistoryViolationException;
import io.isowatch.checker.RegisterOptions;
import io.isowatch.checker.Validity;
import io.isowatch.checker.Verdict;
import io.isowatch.checker.Workload;
import io.isowatch.history.codec.HistoryFormatException;
import io.isowatch.explain.VerdictJson;
import io.isowatch.explain.VerdictText;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code isowatch check}: Elle's verdict on recorded histories, computed by the same incremental
 * engine the stream job runs. Options and exit codes follow elle-cli.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Checks Jepsen histories (JSON lines, a JSON array, or EDN) and prints Elle's verdict.",
                "Exit status: 0 valid or unknown, 1 invalid, 255 error (as elle-cli)."})
final class CheckCommand implements Callable<Integer> {

    @CommandLine.Spec
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

    @Option(names = {"-o", "-d", "--directory"}, paramLabel = "DIR",
            description = "Write each anomaly's explanation and a DOT and SVG picture of every cycle here.")
    Path directory;

    @Option(names = "--reorder-window", defaultValue = "0", paramLabel = "N",
            description = "Events may arrive up to N positions out of index order (default: ${DEFAULT-VALUE}).")
    int reorderWindow;

    @Option(names = "--cycle-search-budget", defaultValue = "5000000", paramLabel = "EDGES",
            description = "Edges one cycle search may visit before the verdict becomes unknown "
                    + "(default: ${DEFAULT-VALUE}).")
    long cycleSearchBudget;

    @Option(names = "--max-shown", defaultValue = "8", paramLabel = "N",
            description = "Text output: findings shown per anomaly type (default: ${DEFAULT-VALUE}).")
    int maxShown;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
    boolean quiet;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "History files.")
    List<Path> files;

    /** Output formats. */
    enum OutputFormat { text, json }

    @Override
    public Integer call() {
        CheckerOptions options = options();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean anyInvalid = false;
        boolean anyError = false;
        for (Path file : files) {
            try {
                HistoryCheck.Result result = new HistoryCheck(options, quiet ? null : err).run(file);
                print(out, file, result);
                if (directory != null) {
                    Pictures.write(outputDirectory(file), result.verdict(), result.atoms());
                }
                anyInvalid |= result.verdict().valid() == Validity.FALSE;
            } catch (HistoryFormatException | HistoryViolationException e) {
                err.println("isowatch check: " + file + ": " + e.getMessage());
                anyError = true;
            } catch (UncheckedIOException e) {
                err.println("isowatch check: " + file + ": " + e.getCause().getMessage());
                anyError = true;
            }
            out.flush();
        }
        return anyError ? ExitCodes.ERROR : anyInvalid ? ExitCodes.INVALID : ExitCodes.VALID;
    }

    private CheckerOptions options() {
        Workload workload = Workload.byElleName(model);
        if (workload == null) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "-m: unknown workload '" + model + "'; isowatch checks list-append and rw-register histories");
        }
        boolean registerFlags = wfrKeys || sequentialKeys || linearizableKeys;
        if (registerFlags && workload != Workload.RW_REGISTER) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--wfr-keys, --sequential-keys and --linearizable-keys apply to -m rw-register only");
        }
        Set<String> modelSet = new LinkedHashSet<>();
        for (String m : models) {
            if (!m.isBlank() && !"none".equals(m)) {
                try {
                    ConsistencyModels.canonicalModel(m.trim());
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "-c: " + e.getMessage());
                }
                modelSet.add(m.trim());
            }
        }
        Set<String> anomalySet = new LinkedHashSet<>();
        for (String a : anomalies) {
            try {
                ConsistencyModels.checkAnomalyName(a.trim());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "-a: " + e.getMessage());
            }
            anomalySet.add(a.trim());
        }
        if (reorderWindow < 0 || cycleSearchBudget <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--reorder-window must be >= 0 and --cycle-search-budget > 0");
        }
        return new CheckerOptions(modelSet, anomalySet, reorderWindow, cycleSearchBudget, workload,
                new RegisterOptions(wfrKeys, sequentialKeys, linearizableKeys));
    }

    private void print(PrintWriter out, Path file, HistoryCheck.Result result) {
        Verdict v = result.verdict();
        if (format == OutputFormat.json) {
            String json = VerdictJson.toJson(v, result.atoms(), result.seconds());
            out.println("{\"file\":" + quote(file.toString()) + "," + json.substring(1));
        } else {
            out.println(file + "\t" + v.valid().elleName());
            if (v.valid() != Validity.TRUE) {
                out.println(VerdictText.render(v, result.atoms(), maxShown));
            }
            out.printf("%s: %,d txns, %,d events checked in %.2f s%n", file, v.stats().txns(), v.stats().ops(),
                    result.seconds());
        }
    }

    private Path outputDirectory(Path file) {
        if (files.size() == 1) {
            return directory;
        }
        String name = file.getFileName().toString().replaceAll("\\.[^.]*$", "");
        return directory.resolve(name);
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
