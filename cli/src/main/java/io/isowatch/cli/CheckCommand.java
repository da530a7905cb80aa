package io.isowatch.cli;

import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.HistoryViolationException;
import io.isowatch.checker.Validity;
import io.isowatch.history.codec.HistoryFormatException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
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

    @Mixin
    CheckFlags flags;

    @Option(names = {"-o", "-d", "--directory"}, paramLabel = "DIR",
            description = "Write each anomaly's explanation and a DOT and SVG picture of every cycle here.")
    Path directory;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "History files.")
    List<Path> files;

    @Override
    public Integer call() {
        CheckerOptions options = flags.checkerOptions();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean anyInvalid = false;
        boolean anyError = false;
        for (Path file : files) {
            try {
                HistoryCheck.Result result = new HistoryCheck(options, flags.quiet ? null : err).run(file);
                flags.print(out, file, result.verdict(), result.atoms(), result.seconds());
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

    private Path outputDirectory(Path file) {
        if (files.size() == 1) {
            return directory;
        }
        String name = file.getFileName().toString().replaceAll("\\.[^.]*$", "");
        return directory.resolve(name);
    }
}
