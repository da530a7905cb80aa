package io.isowatch.agentcli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * The agent image's launcher ({@code isowatch-agent.jar}): {@code agent run} and {@code ui}, the
 * same commands as the full {@code isowatch} launcher's, without the Flink job, Flink or RocksDB.
 * It keeps the name {@code isowatch}, so usage and error messages read as the full launcher's.
 */
@Command(name = "isowatch", mixinStandardHelpOptions = true, addMethodSubcommands = false, versionProvider = Version.class,
        description = "The isowatch agent and findings console (the agent image's launcher; the full isowatch "
                + "launcher offers the same commands and more).",
        subcommands = {AgentCommand.class, UiCommand.class, CommandLine.HelpCommand.class})
public final class AgentMain implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        Launcher.runAndExit(new AgentMain(), args);
    }

    /** Runs the launcher with the given streams and returns its exit code (tests call this). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return Launcher.run(new AgentMain(), out, err, args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
