package io.isowatch.agentcli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code isowatch agent}: the agent's subcommands, {@code run} and {@code export}. */
@Command(name = "agent", mixinStandardHelpOptions = true, addMethodSubcommands = false,
        description = "Records transaction histories beside a database client and drives checking workloads.",
        subcommands = {AgentRunCommand.class, AgentExportCommand.class})
public final class AgentCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
