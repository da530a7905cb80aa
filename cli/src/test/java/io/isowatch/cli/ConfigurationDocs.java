package io.isowatch.cli;

import io.isowatch.agentcli.AgentDeclarations;
import io.isowatch.agentcli.ConsoleDeclarations;
import io.isowatch.agentcli.JobFlagDeclarations;
import io.isowatch.agentcli.OutputDeclarations;
import io.isowatch.agentcli.RunDeclarations;
import io.isowatch.checker.CheckerDeclarations;
import io.isowatch.config.OptionTables;
import io.isowatch.gen.TxnShapeDeclarations;
import io.isowatch.job.JobDeclarations;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * docs/configuration.md's generated tables: each sits between {@code <!-- BEGIN GENERATED name -->}
 * and {@code <!-- END GENERATED name -->} and is rendered from the option declarations. The rest
 * of the file is written by hand.
 */
final class ConfigurationDocs {

    static final Path FILE = Path.of("..", "docs", "configuration.md");
    static final String REGENERATE = "mvn -B -ntp -pl cli -am test -Dtest=ConfigurationDocsTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Disowatch.regenerate-docs=true";

    private static final Pattern REGION = Pattern.compile(
            "(<!-- BEGIN GENERATED ([a-z-]+)[^>]*-->\\n)(.*?)(<!-- END GENERATED \\2 -->)", Pattern.DOTALL);

    private ConfigurationDocs() {
    }

    /** Each generated table by region name, as the declarations render it. */
    static Map<String, String> tables() {
        Map<String, String> t = new LinkedHashMap<>();
        t.put("checker-flags", OptionTables.flagTable(CheckerDeclarations.ALL, List.of("check")));
        t.put("txn-shape", OptionTables.flagTable(TxnShapeDeclarations.ALL, List.of("gen", "agent run", "demo")));
        t.put("run-flags", OptionTables.flagTable(RunDeclarations.ALL, List.of("agent run", "demo")));
        t.put("check-output", OptionTables.flagTable(OutputDeclarations.ALL, List.of("check", "replay")));
        t.put("demo-console", OptionTables.flagTable(ConsoleDeclarations.ALL, List.of("demo")));
        t.put("ui-flags", OptionTables.flagTable(ConsoleDeclarations.ALL, List.of("ui")));
        t.put("gen-flags", OptionTables.flagTable(RunDeclarations.ALL, List.of("gen")));
        List<io.isowatch.config.OptionDeclaration<?>> agentRun = new java.util.ArrayList<>(AgentDeclarations.ALL);
        agentRun.add(OutputDeclarations.QUIET);
        t.put("agent-run-flags", OptionTables.flagTable(agentRun, List.of("agent run")));
        t.put("agent-export-flags", OptionTables.flagTable(List.of(AgentDeclarations.EXPORT_SPOOL_DIR,
                RunDeclarations.GEN_OUTPUT), List.of("agent export")));
        t.put("job-flags", OptionTables.flagTable(List.of(JobFlagDeclarations.FROM_CHECKPOINT,
                RunDeclarations.METRICS_PORT, RunDeclarations.BIND_ADDRESS), List.of("job")));
        t.put("job-options", OptionTables.jobTable(JobDeclarations.ALL));
        return t;
    }

    /** The regions of {@code text}, name to content. */
    static Map<String, String> regions(String text) {
        Map<String, String> found = new LinkedHashMap<>();
        Matcher m = REGION.matcher(text);
        while (m.find()) {
            found.put(m.group(2), m.group(3));
        }
        return found;
    }

    /** {@code text} with every region's content replaced by its table. */
    static String regenerate(String text, Map<String, String> tables) {
        Matcher m = REGION.matcher(text);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String table = tables.getOrDefault(m.group(2), m.group(3));
            m.appendReplacement(b, Matcher.quoteReplacement(m.group(1) + table + m.group(4)));
        }
        m.appendTail(b);
        return b.toString();
    }

    /** Rewrites docs/configuration.md's tables from the declarations. */
    public static void main(String[] args) throws IOException {
        Files.writeString(FILE, regenerate(Files.readString(FILE), tables()));
    }
}
