package io.isowatch.agentcli;

import io.isowatch.testkit.ListeningSockets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent image's launcher in this JVM: {@code agent run} and {@code ui} through {@link AgentMain}. */
class AgentMainTest {

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = AgentMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void help_offersAgentAndUi_andNothingThatNeedsFlink() {
        Run r = run("--help");
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertTrue(r.out().startsWith("Usage: isowatch "), r.out());
        assertTrue(r.out().contains("  agent ") && r.out().contains("  ui "), r.out());
        for (String fullOnly : List.of("check", "replay", "gen", "demo", "job")) {
            assertFalse(r.out().contains("  " + fullOnly + " "), fullOnly + " belongs to the full launcher: " + r.out());
        }
    }

    @Test
    void agentRunHelp_namesTheOptions() {
        Run r = run("agent", "run", "--help");
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertTrue(r.out().startsWith("Usage: isowatch agent run "), r.out());
        for (String option : List.of("--target", "--spool-dir", "--bootstrap-servers", "--metrics-port", "--keys")) {
            assertTrue(r.out().contains(option), option + ": " + r.out());
        }
    }

    @Test
    void agentRun_embeddedTarget_recordsAHistory(@TempDir Path dir) throws Exception {
        Path history = dir.resolve("h.jsonl");
        Run r = run("agent", "run", "--target", "embedded:serializable", "--duration", "1", "-q", "--history-out",
                history.toString());
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertTrue(r.out().contains("transactions in") && r.out().contains("history: " + history), r.out());
        List<String> lines = Files.readAllLines(history);
        assertTrue(lines.size() > 100, "about 1,000 txn/s for 1 s: " + lines.size() + " events");
    }

    @Test
    void agentRun_metricsPort_listensOn127001Only_andPrintsThatAddress() throws Exception {
        try (ListeningSockets.Watch watch = ListeningSockets.watch()) {
            Run r = run("agent", "run", "--target", "embedded:serializable", "--duration", "1", "--metrics-port", "0");
            assertEquals(ExitCodes.VALID, r.code(), r.err());
            Matcher printed = Pattern.compile("metrics at http://127\\.0\\.0\\.1:(\\d+)/metrics").matcher(r.err());
            assertTrue(printed.find(), r.err());
            assertEquals(Set.of(new ListeningSockets.Listener(InetAddress.getLoopbackAddress(),
                    Integer.parseInt(printed.group(1)))), watch.opened(), "the agent's one listener, on 127.0.0.1");
        }
    }

    @Test
    void agentRun_bindAddress_movesTheMetricsPortThere() throws Exception {
        try (ListeningSockets.Watch watch = ListeningSockets.watch()) {
            Run r = run("agent", "run", "--target", "embedded:serializable", "--duration", "1", "--metrics-port", "0",
                    "--bind-address", "127.0.0.2");
            assertEquals(ExitCodes.VALID, r.code(), r.err());
            Matcher printed = Pattern.compile("metrics at http://127\\.0\\.0\\.2:(\\d+)/metrics").matcher(r.err());
            assertTrue(printed.find(), r.err());
            assertEquals(Set.of(new ListeningSockets.Listener(InetAddress.getByName("127.0.0.2"),
                    Integer.parseInt(printed.group(1)))), watch.opened());
        }
    }

    @Test
    void agentRun_unknownBindAddress_isAUsageError() {
        Run r = run("agent", "run", "--target", "embedded:serializable", "--duration", "1", "--metrics-port", "0",
                "--bind-address", "no-such-host.invalid");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().startsWith("isowatch: --bind-address: unknown address no-such-host.invalid"), r.err());
    }

    @Test
    void agentRun_badTarget_isAUsageErrorOnOneLinePlusTheHelpHint() {
        Run r = run("agent", "run", "--target", "embedded:linearizable");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().startsWith("isowatch: ") && r.err().contains("snapshot-isolation"), r.err());
        assertTrue(r.err().contains("Run 'isowatch agent run --help' for usage."), r.err());
    }

    @Test
    void agentHelp_offersRunAndExport() {
        Run r = run("agent", "--help");
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertTrue(r.out().contains("  run ") && r.out().contains("  export "), r.out());
    }

    @Test
    void agentExport_writesTheSpoolAsAHistory_toAFileOrStdout(@TempDir Path dir) throws Exception {
        Path spool = dir.resolve("spool");
        Path history = dir.resolve("h.jsonl");
        Run agent = run("agent", "run", "--target", "embedded:serializable", "--txns", "200", "--duration", "0", "-q",
                "--spool-dir", spool.toString(), "--history-out", history.toString());
        assertEquals(ExitCodes.VALID, agent.code(), agent.err());

        Path exported = dir.resolve("export.jsonl");
        Run toFile = run("agent", "export", "--spool-dir", spool.toString(), "-o", exported.toString());
        assertEquals(ExitCodes.VALID, toFile.code(), toFile.err());
        assertEquals(Files.readAllLines(history), Files.readAllLines(exported), "the same lines as --history-out");
        int events = Files.readAllLines(history).size();  // 200 transactions and the closing reads of their keys
        assertEquals("isowatch: exported " + events + " event(s) (indices 0 to " + (events - 1) + ") from the spool "
                + spool + " to " + exported, toFile.err().strip());

        Run toStdout = run("agent", "export", "--spool-dir", spool.toString());
        assertEquals(ExitCodes.VALID, toStdout.code(), toStdout.err());
        assertEquals(Files.readString(history), toStdout.out());
    }

    @Test
    void agentExport_ofNoSpool_isAUsageErrorNamingTheFlag(@TempDir Path dir) {
        Run r = run("agent", "export", "--spool-dir", dir.toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().startsWith("isowatch: " + dir + " holds no Chronicle queue files"), r.err());
        assertTrue(r.err().contains("--spool-dir"), r.err());
    }

    @Test
    void uiHelp_namesTheSources_andTheTopicDefaultsToTheJobs() {
        Run r = run("ui", "--help");
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertTrue(r.out().startsWith("Usage: isowatch ui "), r.out());
        assertTrue(r.out().contains("--alerts-file") && r.out().contains("--ui-port"), r.out());
        CommandLine ui = new CommandLine(new AgentMain()).getSubcommands().get("ui");
        assertEquals("isowatch.alerts", ui.getCommandSpec().findOption("--alerts-topic").initialValue(),
                "the job's alerts topic by default");
    }

    @Test
    void ui_withoutASource_isAUsageError() {
        Run r = run("ui");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("--alerts-file") && r.err().contains("--bootstrap-servers"), r.err());
    }
}
