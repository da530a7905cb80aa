package io.isowatch.cli;

import picocli.CommandLine;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;

/**
 * The one {@code isowatch} launcher. Subcommands: {@code check} (elle-cli compatible verdicts on
 * recorded histories), {@code replay} (the stream job's verdict on them), {@code gen} (histories
 * from a simulated store), {@code demo} (a live workload through Kafka and the Flink job),
 * {@code job} (the checker job on a local cluster), {@code ui} (the findings console) and {@code agent}.
 */
@Command(name = "isowatch", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Streaming, online checker of transactional isolation (Elle's method, incrementally).",
        subcommands = {CheckCommand.class, ReplayCommand.class, GenCommand.class, DemoCommand.class, UiCommand.class, AgentCommand.class, JobCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code = run(out, err, args);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs the launcher with the given streams and returns its exit code (tests call this). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("isowatch: " + e.getMessage());
            return ExitCodes.ERROR;
        });
        cli.setParameterExceptionHandler((e, args1) -> {
            CommandLine c = e.getCommandLine();
            c.getErr().println("isowatch: " + e.getMessage());
            c.getErr().println("Run '" + c.getCommandSpec().qualifiedName() + " --help' for usage.");
            return ExitCodes.ERROR;
        });
        return cli.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
