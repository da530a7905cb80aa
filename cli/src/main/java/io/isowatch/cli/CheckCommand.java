package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerDeclarations;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.HistoryViolationException;
import io.isowatch.checker.Validity;
import io.isowatch.explain.Notation;
import io.isowatch.history.codec.HistoryFormatException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code isowatch check}: Elle's verdict on recorded histories, computed by the same incremental
 * engine the stream job runs. Options and exit codes follow elle-cli.
 */
@Command(name = "check", mixinStandardHelpOptions = true, addMethodSubcommands = false,
        description = {"Checks Jepsen histories (JSON lines, a JSON array, or EDN) and prints Elle's verdict.",
                "Exit status: 0 valid or unknown, 1 invalid, 255 error (as elle-cli)."})
final class CheckCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    CheckFlags flags;

    @Option(names = {"-o", "-d", "--directory"}, descriptionKey = "directory", paramLabel = "DIR")
    Path directory;

    @Option(names = {"-p", "--plot-format"}, descriptionKey = "plot-format", paramLabel = "FORMAT")
    String plotFormat;

    @Option(names = {"-t", "--plot-timeout"}, paramLabel = "MS",
            description = "Accepted as elle-cli accepts it. Elle bounds each Graphviz run by time; isowatch draws "
                    + "in-process in time linear in the cycle, so no time limit applies (see --max-plot-bytes).")
    Long plotTimeoutMillis;

    @Option(names = {"-b", "--max-plot-bytes"}, descriptionKey = "max-plot-bytes", paramLabel = "BYTES")
    Long maxPlotBytes;

    @Option(names = "--parse-only", descriptionKey = "parse-only")
    boolean parseOnly;

    @Option(names = "--clock-uncertainty", descriptionKey = "clock-uncertainty", paramLabel = "D")
    String clockUncertainty;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "History files.")
    List<Path> files;

    @Override
    public Integer call() {
        CheckerOptions options = flags.checkerOptions();
        if (!"svg".equals(plotFormat)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--plot-format: isowatch draws cycles as SVG "
                    + "(and writes each one's DOT), got '" + plotFormat + "'; for PNG run: dot -Tpng DIR/<anomaly>/<n>.dot");
        }
        if (plotTimeoutMillis != null && plotTimeoutMillis < 0 || maxPlotBytes != null && maxPlotBytes < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--plot-timeout and --max-plot-bytes must be >= 0");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // Given, not defaulted: several files without it stay several histories (elle-cli's meaning).
        boolean fleet = spec.commandLine().getParseResult().hasMatchedOption("--clock-uncertainty");
        if (fleet && files.size() > 1 && !parseOnly) {
            return checkFleet(options, out, err);
        }
        boolean anyInvalid = false;
        boolean anyError = false;
        for (Path file : files) {
            try {
                if (parseOnly) {
                    HistoryCheck.Read read = HistoryCheck.read(file);
                    String leftOut = HistoryCheck.leftOutLine(read.leftOut());
                    out.printf("%s\t%d events read in %.2f s%s%n", file, read.events(), read.seconds(),
                            leftOut == null ? "" : "; " + leftOut);
                    out.flush();
                    continue;
                }
                HistoryCheck.Result result = new HistoryCheck(options, flags.quiet ? null : err).run(file);
                String leftOut = HistoryCheck.leftOutLine(result.leftOut());
                if (leftOut != null) {
                    err.println("isowatch check: " + file + ": " + leftOut);
                    err.flush();
                }
                Notation notation = Notation.of(options.workload());
                flags.print(out, file, result.verdict(), result.atoms(), result.seconds(), notation);
                if (directory != null) {
                    Pictures.Drawn drawn = Pictures.write(outputDirectory(file), result.verdict(), result.atoms(),
                            maxPlotBytes == null ? Long.MAX_VALUE : maxPlotBytes, notation);
                    Report.write(outputDirectory(file), file.getFileName().toString(), result.verdict(), result.atoms(),
                            ConsistencyModel.names(options.consistencyModels()), drawn.svgs(), notation);
                    int skipped = drawn.skipped();
                    if (skipped > 0) {
                        err.println("isowatch check: " + file + ": " + skipped + " cycle picture(s) not drawn: DOT larger"
                                + " than --max-plot-bytes " + maxPlotBytes + " (the .dot files are written)");
                    }
                }
                anyInvalid |= result.verdict().valid() == Validity.FALSE;
            } catch (HistoryFormatException | HistoryViolationException e) {
                err.println("isowatch check: " + file + ": " + e.getMessage());
                anyError = true;
            } catch (UncheckedIOException e) {
                err.println("isowatch check: " + file + ": " + IoFailures.describe(e.getCause()));
                anyError = true;
            } catch (OutOfMemoryError e) {
                // What filled the heap is garbage once this frame is reached: there is room for the
                // line. The files after this one would likely run out too: the check ends here.
                out.flush();
                err.println("isowatch check: " + FatalErrors.outOfMemory("checking " + file));
                return ExitCodes.ERROR;
            } catch (CheckFailure e) {
                err.println("isowatch check: " + file + ": " + FatalErrors.bug(e.where(), e.getCause()));
                anyError = true;
            } catch (RuntimeException | StackOverflowError e) {
                err.println("isowatch check: " + file + ": "
                        + FatalErrors.bug(parseOnly ? "reading it" : "writing its verdict", e));
                anyError = true;
            }
            out.flush();
        }
        return anyError ? ExitCodes.ERROR : anyInvalid ? ExitCodes.INVALID : ExitCodes.VALID;
    }

    /**
     * Several files given with {@code --clock-uncertainty}: one history recorded by several
     * agents, one file each (decision 0021), checked as one and printed as one verdict, under
     * the files' names joined by commas. Without the flag, several files stay several histories,
     * as in elle-cli; one file is one agent, checked as ever.
     */
    private int checkFleet(CheckerOptions options, PrintWriter out, PrintWriter err) {
        Duration epsilon;
        try {
            epsilon = CheckerDeclarations.CLOCK_UNCERTAINTY.parseFlag("--clock-uncertainty", clockUncertainty);
            CheckerDeclarations.CLOCK_UNCERTAINTY.type().check("--clock-uncertainty", epsilon);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (options.workload() == io.isowatch.checker.Workload.RW_REGISTER
                && options.registerOptions().linearizableKeys()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--linearizable-keys cannot check several"
                    + " agents' files as one history: it orders versions by realtime in index order, which merged"
                    + " clocks do not give (--sequential-keys and --wfr-keys still apply)");
        }
        String label = String.join(",", files.stream().map(Path::toString).toList());
        try {
            HistoryCheck.Result result = new FleetCheck(options, epsilon, flags.quiet ? null : err).run(files, label);
            String leftOut = HistoryCheck.leftOutLine(result.leftOut());
            if (leftOut != null) {
                err.println("isowatch check: " + label + ": " + leftOut);
            }
            Notation notation = Notation.of(options.workload());
            flags.print(out, Path.of(label), result.verdict(), result.atoms(), result.seconds(), notation);
            if (directory != null) {
                Pictures.Drawn drawn = Pictures.write(directory, result.verdict(), result.atoms(),
                        maxPlotBytes == null ? Long.MAX_VALUE : maxPlotBytes, notation);
                Report.write(directory, label, result.verdict(), result.atoms(),
                        ConsistencyModel.names(options.consistencyModels()), drawn.svgs(), notation);
            }
            out.flush();
            return result.verdict().valid() == Validity.FALSE ? ExitCodes.INVALID : ExitCodes.VALID;
        } catch (FleetCheck.AgentFailure e) {
            err.println("isowatch check: " + e.file + ": " + e.getMessage());
        } catch (HistoryFormatException | HistoryViolationException e) {
            err.println("isowatch check: " + label + ": " + e.getMessage());
        } catch (UncheckedIOException e) {
            err.println("isowatch check: " + label + ": " + IoFailures.describe(e.getCause()));
        } catch (OutOfMemoryError e) {
            out.flush();
            err.println("isowatch check: " + FatalErrors.outOfMemory("checking " + label));
        } catch (CheckFailure e) {
            err.println("isowatch check: " + label + ": " + FatalErrors.bug(e.where(), e.getCause()));
        } catch (RuntimeException | StackOverflowError e) {
            err.println("isowatch check: " + label + ": " + FatalErrors.bug("writing its verdict", e));
        }
        out.flush();
        return ExitCodes.ERROR;
    }

    private Path outputDirectory(Path file) {
        if (files.size() == 1) {
            return directory;
        }
        String name = file.getFileName().toString().replaceAll("\\.[^.]*$", "");
        return directory.resolve(name);
    }
}
