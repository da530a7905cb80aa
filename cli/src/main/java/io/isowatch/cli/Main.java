package io.isowatch.cli;

import io.isowatch.agentcli.AgentCommand;
import io.isowatch.agentcli.Launcher;
import io.isowatch.agentcli.UiCommand;
import io.isowatch.agentcli.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * The one {@code isowatch} launcher. Subcommands: {@code check} (elle-cli compatible verdicts on
 * recorded histories), {@code replay} (the stream job's verdict on them), {@code gen} (histories
 * from a simulated store), {@code demo} (a live workload through Kafka and the Flink job),
 * {@code job} (the checker job on a local cluster), {@code ui} (the findings console) and {@code agent}.
 * {@code ui} and {@code agent} come from module {@code agent-cli}, which the agent image runs without Flink.
 */
@Command(name = "isowatch", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Streaming, online checker of transactional isolation (Elle's method, incrementally).",
        subcommands = {CheckCommand.class, ReplayCommand.class, GenCommand.class, DemoCommand.class, UiCommand.class, AgentCommand.class, JobCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        Launcher.runAndExit(new Main(), args);
    }

    /** Runs the launcher with the given streams and returns its exit code (tests call this). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return Launcher.run(new Main(), out, err, args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
