package io.isowatch.ui.intake;

import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertJson;
import io.isowatch.sinks.file.JsonLinesAlertSink;
import io.isowatch.sinks.file.JsonLinesSinkOptions;
import io.isowatch.ui.FindingStore;
import io.isowatch.ui.TestAlerts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AlertsFileFollowerTest {

    @TempDir
    Path dir;

    private final FindingStore store = new FindingStore(100);

    private static byte[] line(Alert a) {
        byte[] json = AlertJson.toBytes(a);
        byte[] out = Arrays.copyOf(json, json.length + 1);
        out[json.length] = '\n';
        return out;
    }

    @Test
    void readNew_takesCompleteLinesOnly_skipsBadOnes_andRereadsAShrunkFile() throws IOException {
        Path file = dir.resolve("alerts.jsonl");
        Alert a = TestAlerts.writeSkewAlert("a", "b", 0, "h", 1);
        Alert b = TestAlerts.writeSkewAlert("c", "d", 10, "h", 2);
        byte[] second = line(b);
        Files.write(file, line(a));
        Files.write(file, "not an alert\n".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        // Half of the second alert: its writer has not finished the line yet.
        Files.write(file, Arrays.copyOf(second, 40), StandardOpenOption.APPEND);
        try (AlertsFileFollower f = AlertsFileFollower.start(file, new AlertIntake(store, file.toString()), Duration.ofHours(1))) {
            f.readNew();
            assertEquals(1, store.size());
            assertEquals(1, store.unreadable());
            Files.write(file, Arrays.copyOfRange(second, 40, second.length), StandardOpenOption.APPEND);
            f.readNew();
            assertEquals(2, store.size(), "the line is taken once its newline is written");
            assertEquals(b.id(), store.newestFirst().get(0).id());
            // Rotated: a new, shorter file in its place. Read from its start; the repeat is dropped.
            Files.write(file, line(a));
            f.readNew();
            assertEquals(2, store.size());
            assertEquals(1, store.repeats());
            assertEquals(4, f.lines());
        }
    }

    @Test
    void follower_waitsForTheFile_thenSeesEachAppendedAlertWithinItsInterval() throws Exception {
        Path file = dir.resolve("later/alerts.jsonl");
        try (AlertsFileFollower f = AlertsFileFollower.start(file, new AlertIntake(store, "test"), Duration.ofMillis(50));
             JsonLinesAlertSink sink = new JsonLinesSinkOptions(file).open()) {
            for (int i = 0; i < 3; i++) {
                sink.accept(TestAlerts.writeSkewAlert("k" + i, "j" + i, 10L * i, "h", i));
                long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
                while (store.size() < i + 1 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertEquals(i + 1, store.size(), "alert " + i + " seen within 2 s");
            }
            assertTrue(f.lines() >= 3);
        }
    }
}
