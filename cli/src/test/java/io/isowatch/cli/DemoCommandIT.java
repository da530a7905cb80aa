package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import io.isowatch.testing.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo end to end (embedded store, recorder, Chronicle spool, shipper, an in-JVM broker and
 * the checker job on a local Flink cluster): alerts where the level allows anomalies, silence
 * where it does not, and a verdict at the end either way.
 */
class DemoCommandIT {

    @Test
    void snapshotIsolationStore_checkedAsSerializable_writesWriteSkewAlerts(@TempDir Path dir) throws IOException {
        Path alerts = dir.resolve("alerts.jsonl");
        CheckCommandTest.Run r = CheckCommandTest.run("demo", "--isolation", "snapshot-isolation", "-c", "serializable",
                "--duration", "2", "--alerts-file", alerts.toString());
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertTrue(r.out().contains("ALERT G2-item"), r.out());
        java.util.regex.Matcher console = java.util.regex.Pattern.compile("findings console: (http://127\\.0\\.0\\.1:\\d+)/")
                .matcher(r.out());
        assertTrue(console.find(), r.out());
        assertTrue(r.out().contains("  see " + console.group(1) + "/findings/"), "each alert links to its page");
        assertTrue(r.out().contains("alerts so far"), r.out());
        assertTrue(r.out().indexOf("ALERT") < r.out().indexOf("Verdict"), "alerts come as they are found");
        assertTrue(r.out().contains("Verdict (serializable):\nvalid: false"), r.out());
        List<String> lines = Files.readAllLines(alerts);
        assertFalse(lines.isEmpty(), "no alert written");
        Set<Object> ids = new HashSet<>();
        for (String line : lines) {
            Map<String, Object> alert = Json.object(line);
            assertTrue(((String) alert.get("type")).startsWith("G"), line);
            ids.add(alert.get("id"));
            assertEquals(console.group(1) + "/findings/" + alert.get("id"), alert.get("link"), line);
        }
        assertEquals(lines.size(), ids.size(), "each finding once, with its own id");
        assertTrue(r.out().contains(String.format("detection delay over %,d alerts: p50 ", lines.size())), r.out());
    }

    @Test
    void serializableStore_checkedAsSerializable_staysSilent() {
        CheckCommandTest.Run r = CheckCommandTest.run("demo", "--isolation", "serializable", "-c", "serializable",
                "--duration", "2", "--ui-port", "0");
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertFalse(r.out().contains("findings console"), "--ui-port 0: no console");
        assertFalse(r.out().contains("ALERT"), r.out());
        assertTrue(r.out().contains("valid: true"), r.out());
    }
}
