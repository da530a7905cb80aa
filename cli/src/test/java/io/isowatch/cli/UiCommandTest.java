package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.file.JsonLinesAlertSink;
import io.isowatch.sinks.file.JsonLinesSinkOptions;
import io.isowatch.testing.Json;
import io.isowatch.ui.TestAlerts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code isowatch ui} end to end: the command serves an alerts file over real HTTP until stopped. */
class UiCommandTest {

    private static final Pattern URL = Pattern.compile("the findings console at (http://\\S+)/ ");

    @Test
    void ui_followsTheAlertsFile_andServesItsFindings_untilInterrupted(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("alerts.jsonl");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        AtomicInteger code = new AtomicInteger(-1);
        Thread ui = new Thread(() -> code.set(Main.run(new PrintWriter(out, true), new PrintWriter(err, true),
                "ui", "--alerts-file", file.toString(), "--ui-port", "0")));
        ui.start();
        try {
            String base = Printed.await(out, URL, Duration.ofSeconds(60));
            Alert alert = TestAlerts.writeSkewAlert("x", "y", "agent-1", TestAlerts.DETECTED_AT);
            try (JsonLinesAlertSink sink = new JsonLinesSinkOptions(file).open()) {
                sink.accept(alert);
            }
            HttpClient http = HttpClient.newHttpClient();
            List<?> rows = List.of();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (rows.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
                rows = (List<?>) Json.parse(http.send(HttpRequest.newBuilder(URI.create(base + "/api/findings")).build(),
                        HttpResponse.BodyHandlers.ofString()).body());
            }
            assertEquals(alert.id(), ((Map<?, ?>) rows.get(0)).get("id"));
            assertTrue(out.toString().contains("findings of file " + file), out.toString());
        } finally {
            ui.interrupt();
            ui.join(10_000);
        }
        assertEquals(ExitCodes.VALID, code.get(), err.toString());
    }

    @Test
    void ui_withoutASource_isAUsageError() {
        CheckCommandTest.Run r = CheckCommandTest.run("ui");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("--alerts-file") && r.err().contains("--bootstrap-servers"), r.err());
    }

    @Test
    void ui_takenExplicitPort_isAUsageError() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            CheckCommandTest.Run r = CheckCommandTest.run("ui", "--alerts-file", "a.jsonl", "--ui-port",
                    Integer.toString(taken.getLocalPort()));
            assertEquals(ExitCodes.ERROR, r.code());
            assertTrue(r.err().contains("--ui-port: cannot listen on 127.0.0.1:" + taken.getLocalPort()), r.err());
        }
    }
}
