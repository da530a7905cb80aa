package io.isowatch.sinks.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.history.AtomTable;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.Alerts;
import io.isowatch.sinks.ConsoleLink;
import io.isowatch.testing.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

class JsonLinesAlertSinkTest {

    @TempDir
    Path dir;

    @Test
    void accept_writesOneFlushedJsonObjectPerLine_readableBeforeClose() throws IOException {
        Path file = dir.resolve("sub/alerts.jsonl");
        AtomTable atoms = new AtomTable();
        Alert first = Alerts.gSingleAlert();
        Alert second = Alert.of(Alerts.incompatibleOrder(atoms), List.of("read-committed"), Alerts.DETECTED_AT + 1,
                Alert.UNKNOWN_DELAY, atoms);
        try (JsonLinesAlertSink sink = new JsonLinesSinkOptions(file).open()) {
            sink.accept(first);
            sink.accept(second);
            // Flushed per alert: a reader sees both lines while the sink is still open.
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            assertEquals(2, lines.size());
            Map<String, Object> a = Json.object(lines.get(0));
            assertEquals(first.id(), a.get("id"));
            assertEquals("G-single-item", a.get("type"));
            assertEquals(List.of("serializable"), a.get("models"));
            assertEquals(12L, a.get("detection-delay-ms"));
            assertEquals("2025-01-02T03:04:05.678Z", a.get("detected-at"));
            assertEquals(first.explanation(), ((Map<?, ?>) a.get("finding")).get("explanation"));
            assertTrue(((List<?>) ((Map<?, ?>) a.get("finding")).get("cycle")).size() == 3, "cycle of 2 plus the first again");
            Map<String, Object> b = Json.object(lines.get(1));
            assertEquals(second.id(), b.get("id"));
            assertEquals("incompatible-order", b.get("type"));
            assertEquals("accounts", ((Map<?, ?>) b.get("finding")).get("key"));
            assertEquals(null, b.get("detection-delay-ms"));
        }
    }

    @Test
    void open_existingFile_appends() throws IOException {
        Path file = dir.resolve("alerts.jsonl");
        Files.writeString(file, "{\"earlier\":true}\n");
        try (JsonLinesAlertSink sink = new JsonLinesAlertSink(new JsonLinesSinkOptions(file))) {
            sink.accept(Alerts.gSingleAlert());
        }
        try (JsonLinesAlertSink sink = new JsonLinesAlertSink(new JsonLinesSinkOptions(file))) {
            sink.accept(Alerts.gSingleAlert());
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(3, lines.size());
        assertEquals(Map.of("earlier", true), Json.object(lines.get(0)));
        assertEquals(Json.object(lines.get(1)), Json.object(lines.get(2)), "the same alert twice: same line, same id");
    }

    @Test
    void accept_withConsole_addsTheLinkToTheFindingsPage() throws IOException {
        Path file = dir.resolve("linked.jsonl");
        Alert alert = Alerts.gSingleAlert();
        try (JsonLinesAlertSink sink = new JsonLinesSinkOptions(file, new ConsoleLink("http://127.0.0.1:8642")).open()) {
            sink.accept(alert);
        }
        Map<String, Object> line = Json.object(Files.readAllLines(file, StandardCharsets.UTF_8).get(0));
        assertEquals("http://127.0.0.1:8642/findings/" + alert.id(), line.get("link"));
        assertEquals(false, Json.object(new String(io.isowatch.sinks.AlertJson.toBytes(alert), StandardCharsets.UTF_8))
                .containsKey("link"), "no console, no link");
    }

    @Test
    void accept_afterClose_throws() {
        JsonLinesAlertSink sink = new JsonLinesAlertSink(new JsonLinesSinkOptions(dir.resolve("a.jsonl")));
        sink.close();
        sink.close();
        assertThrows(IllegalStateException.class, () -> sink.accept(Alerts.gSingleAlert()));
    }
}
