package io.isowatch.agentcli;

import io.isowatch.config.NearestNames;
import picocli.CommandLine;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Runs an isowatch command line: the streams, the one-line error messages and the exit codes that
 * both launchers share (the full {@code isowatch} and the agent image's), so a command behaves the
 * same whichever jar it runs from.
 */
public final class Launcher {

    private Launcher() {
    }

    /** Runs {@code command} (a picocli top-level command) on stdout and stderr in UTF-8, then exits with its code. */
    public static void runAndExit(Object command, String... args) {
        runAndExit(new CommandLine(command), args);
    }

    /** Runs {@code cli} (a picocli top-level command line) on stdout and stderr in UTF-8, then exits with its code. */
    public static void runAndExit(CommandLine cli, String... args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code = run(cli, out, err, args);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /**
     * Runs {@code command} with the given streams and returns its exit code: a usage error or a
     * failure prints one line, "isowatch: " and the message, and returns {@link ExitCodes#ERROR}.
     */
    public static int run(Object command, PrintWriter out, PrintWriter err, String... args) {
        return run(new CommandLine(command), out, err, args);
    }

    /** As {@link #run(Object, PrintWriter, PrintWriter, String...)}, for a command line already built. */
    public static int run(CommandLine cli, PrintWriter out, PrintWriter err, String... args) {
        DeclaredFlags.install(cli);
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("isowatch: " + e.getMessage());
            return ExitCodes.ERROR;
        });
        cli.setParameterExceptionHandler((e, args1) -> {
            CommandLine c = e.getCommandLine();
            c.getErr().println("isowatch: " + unknownCommand(e).orElse(e.getMessage()));
            c.getErr().println("Run '" + c.getCommandSpec().qualifiedName() + " --help' for usage.");
            return ExitCodes.ERROR;
        });
        return cli.execute(args);
    }

    /**
     * For a first argument that names no subcommand ({@code isowatch chek x}), the line that says
     * so and suggests the nearest names; empty for any other usage error.
     */
    private static Optional<String> unknownCommand(CommandLine.ParameterException e) {
        CommandLine c = e.getCommandLine();
        if (!(e instanceof CommandLine.UnmatchedArgumentException u) || c.getSubcommands().isEmpty()
                || u.getUnmatched().isEmpty()) {
            return Optional.empty();
        }
        String typed = u.getUnmatched().get(0);
        if (typed.startsWith("-") || c.getSubcommands().containsKey(typed)) {
            return Optional.empty();
        }
        Set<String> names = new TreeSet<>(c.getSubcommands().keySet());
        String near = NearestNames.didYouMean(typed, names);
        return Optional.of("unknown command '" + typed + "'" + near
                + (near.isEmpty() ? "; the commands are: " + String.join(", ", names) : ""));
    }
}
