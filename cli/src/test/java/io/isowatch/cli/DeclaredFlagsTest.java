package io.isowatch.cli;

import io.isowatch.agentcli.DeclaredFlags;
import io.isowatch.config.OptionDeclaration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's flags agree with the option declarations: every declared flag exists on each
 * command the declaration names, under the declared names, and every flag that names a
 * declaration (descriptionKey) is one of its commands'.
 */
class DeclaredFlagsTest {

    @Test
    void everyDeclaredFlag_isOnItsCommands_underItsNames() {
        CommandLine cli = Main.commandLine();
        List<String> problems = new ArrayList<>();
        for (OptionDeclaration<?> d : DeclaredFlags.ALL) {
            for (String command : d.commands()) {
                CommandLine c = find(cli, command);
                OptionSpec o = c == null ? null : c.getCommandSpec().findOption(d.flagName());
                if (o == null) {
                    problems.add(command + " has no " + d.flagName() + " (declared " + d.key() + ")");
                } else if (!o.descriptionKey().equals(d.key()) || !Arrays.asList(o.names()).equals(d.flags())) {
                    problems.add(command + " " + d.flagName() + ": names " + Arrays.asList(o.names())
                            + " and descriptionKey '" + o.descriptionKey() + "', declared " + d.flags() + " and '"
                            + d.key() + "'");
                }
            }
        }
        walk(cli, problems);
        assertEquals(List.of(), problems);
    }

    @Test
    void help_showsTheDeclaredDocAndDefault() {
        CheckCommandTest.Run r = CheckCommandTest.run("check", "--help");
        String help = r.out().replaceAll("\\s+", " ");
        assertTrue(help.contains("Edges one cycle search may visit; beyond it the verdict is unknown"
                + "; whole number ≥ 1 (default: 5000000)."), r.out());
        assertTrue(help.contains("bare number: milliseconds"), r.out());
    }

    @Test
    void checkS_bareNumber_isMilliseconds_andSaysSoOnce_unlessQuiet() {
        String file = CheckCommandTest.golden("G2-item-write-skew").toString();
        CheckCommandTest.Run bare = CheckCommandTest.run("check", "-s", "1000", file);
        assertEquals(1, bare.err().split("is read as milliseconds", -1).length - 1, bare.err());
        assertTrue(bare.err().contains("write 1s"), bare.err());
        for (String[] args : List.of(new String[] {"check", "-s", "1s", file}, new String[] {"check", "-s", "0", file},
                new String[] {"check", "-q", "-s", "1000", file})) {
            CheckCommandTest.Run r = CheckCommandTest.run(args);
            assertTrue(!r.err().contains("milliseconds"), String.join(" ", args) + ": " + r.err());
            assertEquals(bare.code(), r.code());
        }
    }

    @Test
    void shapeFlags_areCheckedByTheirDeclaration_namingTheFlag() {
        CheckCommandTest.Run r = CheckCommandTest.run("gen", "-n", "1", "--max-txn-length", "0");
        assertTrue(r.err().contains("--max-txn-length: expected a whole number from 1 up, got \"0\""), r.err());
    }

    @Test
    void demo_keepsItsOwnDefaults_fromTheDeclarations() {
        CommandLine cli = Main.commandLine("demo");
        DeclaredFlags.install(cli);
        cli.parseArgs("demo");
        DemoCommand demo = cli.getSubcommands().get("demo").getCommand();
        assertEquals(5, demo.shape.toShape().keyCount(), "the demo's declared --keys");
        assertEquals(io.isowatch.gen.TxnShape.ELLE.toBuilder().keyCount(5).build(), demo.shape.toShape());
        assertEquals(java.util.Set.of("strict-serializable"), demo.models);
    }

    @Test
    void runFlags_keepEachCommandsDefaults_fromTheDeclarations() {
        assertEquals(java.util.Map.of("--rate", 1000.0, "--concurrency", 10, "--duration", "10s", "--txns", 0L,
                "--seed", 0L, "--drain-timeout", "30s", "--metrics-port", -1, "--bind-address", "127.0.0.1",
                "--read-only-lag", 8, "--record-format", "binary"), defaults(new String[] {"agent", "run",
                        "--target", "embedded:serializable"}, "--rate", "--concurrency", "--duration", "--txns", "--seed",
                "--drain-timeout", "--metrics-port", "--bind-address", "--read-only-lag", "--record-format"));
        assertEquals(java.util.Map.of("--rate", 2000, "--concurrency", 8, "--duration", "10s", "--seed", 0L,
                "--metrics-port", -1, "--bind-address", "127.0.0.1"), defaults(new String[] {"demo"}, "--rate",
                "--concurrency", "--duration", "--seed", "--metrics-port", "--bind-address"));
        assertEquals(java.util.Map.of("--txns", 1000L, "--concurrency", 10, "--seed", 0L, "--fail-rate", 0.0,
                "--info-rate", 0.0, "--stale-read-rate", 0.0, "--no-closing-reads", false, "--format", "json",
                "--workload", "list-append"), defaults(new String[] {"gen"}, "--txns", "--concurrency", "--seed",
                "--fail-rate", "--info-rate", "--stale-read-rate", "--no-closing-reads", "--format", "--workload"));
    }

    @Test
    void outputAndConsoleFlags_keepTheirDefaults_fromTheDeclarations() {
        assertEquals(java.util.Map.of("--format", CheckFlags.OutputFormat.text, "--max-shown", 8, "--plot-format", "svg",
                "--quiet", false, "--parse-only", false), defaults(new String[] {"check", "h.jsonl"}, "--format",
                "--max-shown", "--plot-format", "--quiet", "--parse-only"));
        java.util.Map<String, Object> ui = defaults(new String[] {"ui"}, "--alerts-topic", "--max-findings",
                "--ui-bind", "--ui-port");
        assertEquals("isowatch.alerts", ui.get("--alerts-topic"));
        assertEquals(10_000, ui.get("--max-findings"));
        assertEquals("127.0.0.1", ui.get("--ui-bind"));
        assertEquals(null, ui.get("--ui-port"), "no --ui-port: the console's own port, else any free one");
        assertEquals(java.util.Map.of("--ui-linger", "auto", "--isolation", "snapshot-isolation"),
                defaults(new String[] {"demo"}, "--ui-linger", "--isolation"));
        java.util.Map<String, Object> agent = defaults(new String[] {"agent", "run", "--target",
                "embedded:serializable"}, "--isolation", "--user", "--agent-id", "--table-prefix", "--topic");
        assertEquals(null, agent.get("--isolation"), "agent run's --isolation stays unset: JDBC's serializable");
        assertEquals(null, agent.get("--user"));
        assertEquals(null, agent.get("--agent-id"));
        assertEquals("isowatch", agent.get("--table-prefix"));
        assertEquals("isowatch.history", agent.get("--topic"));
        java.util.Map<String, Object> job = defaults(new String[] {"job"}, "--from-checkpoint", "--metrics-port");
        assertEquals("latest", job.get("--from-checkpoint"));
        assertEquals(-1, job.get("--metrics-port"));
    }

    /** The values {@code flags} of the command {@code args} names take when {@code args} are parsed. */
    private static java.util.Map<String, Object> defaults(String[] args, String... flags) {
        CommandLine cli = Main.commandLine(args[0]);
        DeclaredFlags.install(cli);
        CommandLine.ParseResult parsed = cli.parseArgs(args);
        while (parsed.hasSubcommand()) {
            parsed = parsed.subcommand();
        }
        java.util.Map<String, Object> values = new java.util.HashMap<>(); // a null value is kept
        for (String flag : flags) {
            values.put(flag, parsed.commandSpec().findOption(flag).getValue());
        }
        return values;
    }

    private static void walk(CommandLine c, List<String> problems) {
        for (OptionSpec o : c.getCommandSpec().options()) {
            if (o.descriptionKey() != null && o.descriptionKey().matches("[a-z0-9-]+")
                    && DeclaredFlags.declaration(o).isEmpty()) {
                problems.add(DeclaredFlags.command(c.getCommandSpec()) + " " + o.longestName() + " names '"
                        + o.descriptionKey() + "', which no declaration for that command has");
            }
        }
        c.getSubcommands().values().forEach(s -> walk(s, problems));
    }

    private static CommandLine find(CommandLine root, String command) {
        CommandLine c = root;
        for (String name : command.split(" ")) {
            c = c.getSubcommands().get(name);
            if (c == null) {
                return null;
            }
        }
        return c;
    }
}
