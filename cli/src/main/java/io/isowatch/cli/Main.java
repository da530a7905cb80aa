package io.isowatch.cli;

import io.isowatch.agentcli.AgentCommand;
import io.isowatch.agentcli.ExitCodes;
import io.isowatch.agentcli.Launcher;
import io.isowatch.agentcli.UiCommand;
import io.isowatch.agentcli.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.List;

/**
 * The one {@code isowatch} launcher. Subcommands: {@code check} (elle-cli compatible verdicts on
 * recorded histories), {@code replay} (the stream job's verdict on them), {@code gen} (histories
 * from a simulated store), {@code demo} (a live workload through Kafka and the Flink job),
 * {@code job} (the checker job on a local cluster), {@code ui} (the findings console) and {@code agent}.
 * {@code ui} and {@code agent} come from module {@code agent-cli}, which the agent image runs without Flink.
 */
@Command(name = "isowatch", mixinStandardHelpOptions = true, addMethodSubcommands = false, versionProvider = Version.class,
        description = "Streaming, online checker of transactional isolation (Elle's method, incrementally).")
public final class Main implements Runnable {

    /** The subcommands besides {@code help} (which comes last), in the order usage lists them. */
    private static final List<Class<?>> SUBCOMMANDS = List.of(CheckCommand.class, ReplayCommand.class, GenCommand.class,
            DemoCommand.class, UiCommand.class, AgentCommand.class, JobCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * Runs the launcher and exits with its code. A command ends its own failures with one line;
     * this catches what escapes them (picocli passes errors such as running out of memory
     * through), so that no failure ends in a stack trace and exit code 1, which reads as
     * "invalid", but in one line and {@link ExitCodes#ERROR}.
     */
    public static void main(String[] args) {
        try {
            Launcher.runAndExit(commandLine(args), args);
        } catch (Throwable e) {
            exitOnEscaped(e);
        }
    }

    private static void exitOnEscaped(Throwable e) {
        try {
            String line = e instanceof OutOfMemoryError ? FatalErrors.outOfMemory("running isowatch")
                    : FatalErrors.bug("running isowatch", e);
            System.err.println("isowatch: " + line);
            System.err.flush();
        } finally {
            System.exit(ExitCodes.ERROR);
        }
    }

    /** Runs the launcher with the given streams and returns its exit code (tests call this). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return Launcher.run(commandLine(args), out, err, args);
    }

    /**
     * The command line for {@code args}. Building a subcommand's model (picocli reads its
     * options by reflection, interpreted at start) costs tens of milliseconds each, a quarter of
     * a small check's start: when {@code args} name a subcommand, only that one is built; for
     * anything else (no subcommand, {@code help}, a typo) all are, so usage lists them and
     * picocli can suggest the nearest.
     */
    static CommandLine commandLine(String... args) {
        CommandLine cli = new CommandLine(new Main());
        Class<?> named = args.length == 0 ? null : SUBCOMMANDS.stream()
                .filter(c -> c.getAnnotation(Command.class).name().equals(args[0]))
                .findFirst().orElse(null);
        for (Class<?> subcommand : SUBCOMMANDS) {
            if (named == null || subcommand == named) {
                cli.addSubcommand(new CommandLine(subcommand)); // built whole, so its model transformer runs
            }
        }
        cli.addSubcommand(CommandLine.HelpCommand.class);
        return cli;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
