package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import io.isowatch.testing.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        assertTrue(Pattern.compile("(?m)^ALERT G2-item[^\n]*  " + Pattern.quote(console.group(1)) + "/findings/[0-9a-f]+$")
                .matcher(r.out()).find(), "each alert is one line with its page: " + r.out());
        assertTrue(r.out().lines().count() < 200, r.out());
        assertTrue(r.out().contains("alerts so far"), r.out());
        assertTrue(r.out().indexOf("ALERT") < r.out().indexOf("Verdict"), "alerts come as they are found");
        assertTrue(r.out().contains("Verdict (serializable):\nvalid: false\nanomalies: "), r.out());
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

    @Test
    void checkerJobCancelledFromOutside_demoSaysSoAtOnceAndExits255WithWhatWasChecked() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CompletableFuture<Integer> demo = CompletableFuture.supplyAsync(() -> Main.run(new PrintWriter(out, true),
                new PrintWriter(err, true), "demo", "--isolation", "snapshot-isolation", "--duration", "120",
                "--ui-port", "0"));
        Matcher cluster = Pattern.compile("checker job (\\p{XDigit}{32}) on a local Flink cluster at (http://127\\.0\\.0\\.1:\\d+/)")
                .matcher(Printed.await(out, Pattern.compile("(checker job .* on a local Flink cluster at \\S+)"),
                        Duration.ofSeconds(90)));
        assertTrue(cluster.find(), out.toString());
        Printed.await(out, Pattern.compile("alerts so far"), Duration.ofSeconds(60));
        // As anyone who reaches the REST endpoint can: cancel the job.
        HttpResponse<String> cancel = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(cluster.group(2) + "jobs/" + cluster.group(1) + "?mode=cancel"))
                .method("PATCH", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(202, cancel.statusCode(), cancel.body());
        long cancelled = System.nanoTime();
        int code = demo.get(60, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - cancelled) / 1e9;
        assertEquals(ExitCodes.ERROR, code, err.toString());
        assertTrue(seconds < 30, "the demo took " + seconds + " s to end after the cancel, of a 120 s run");
        assertEquals(1, err.toString().lines().filter(l -> l.startsWith("isowatch demo: the checker job stopped after "))
                .count(), err.toString());
        assertTrue(out.toString().contains("Verdict of what was checked before the job stopped"), out.toString());
    }
}
