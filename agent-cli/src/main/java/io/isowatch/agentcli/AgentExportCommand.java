package io.isowatch.agentcli;

import io.isowatch.agent.transport.CorruptRecordException;
import io.isowatch.agent.transport.SpoolExport;
import io.isowatch.agent.transport.SpoolScan;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code isowatch agent export}: writes an agent's spool as a Jepsen JSON-lines history, so that
 * the one file that survives a crash (or a run without Kafka) can be checked by isowatch itself.
 * Reads the spool only; safe beside a running agent.
 */
@Command(name = "export", mixinStandardHelpOptions = true, addMethodSubcommands = false,
        description = {"Writes an agent's spool as a Jepsen JSON-lines history (for isowatch check or elle-cli).",
                "Records that cannot be decoded are skipped and counted on stderr.",
                "Example: isowatch agent export --spool-dir spool -o h.jsonl && isowatch check h.jsonl"})
final class AgentExportCommand implements Callable<Integer> {

    /** Corrupt records named one by one on stderr; beyond this, only counted. */
    private static final int NAMED_CORRUPT = 10;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--spool-dir", required = true, descriptionKey = "spool-dir", paramLabel = "DIR")
    Path spoolDir;

    @Option(names = {"-o", "--output"}, descriptionKey = "output", paramLabel = "FILE")
    Path output;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        long[] corrupt = {0};
        SpoolScan.Summary summary;
        try (OutputStream out = output == null ? new WriterOutputStream(spec.commandLine().getOut())
                : Files.newOutputStream(output)) {
            summary = SpoolExport.export(spoolDir, out, e -> {
                if (++corrupt[0] <= NAMED_CORRUPT) {
                    err.println("isowatch: skipped spool index " + Long.toHexString(e.index())
                            + ", which cannot be decoded: byte " + e.errorOffset() + ": " + e.reason());
                }
            });
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage()); // not a spool
        }
        err.printf(Locale.ROOT, "isowatch: exported %,d event(s)%s from the spool %s to %s%n", summary.events(),
                summary.events() == 0 ? "" : " (indices " + summary.first().sequence() + " to "
                        + summary.last().sequence() + ")", spoolDir, output == null ? "stdout" : output);
        if (summary.corrupt() > 0) {
            err.printf(Locale.ROOT, "isowatch: skipped %,d record(s) that cannot be decoded (an agent run on the spool"
                    + " sets them aside in %s)%n", summary.corrupt(), spoolDir.resolve("quarantine.jsonl"));
        }
        if (!summary.open().isEmpty()) {
            err.printf(Locale.ROOT, "isowatch: %,d transaction(s) have no completion: the agent stopped before"
                    + " recording it (an agent run on the spool records them as info first)%n", summary.open().size());
        }
        err.flush();
        return ExitCodes.VALID;
    }
}
