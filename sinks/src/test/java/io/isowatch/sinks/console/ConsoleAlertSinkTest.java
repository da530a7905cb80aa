package io.isowatch.sinks.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.sinks.Alert;
import io.isowatch.sinks.Alerts;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

class ConsoleAlertSinkTest {

    @Test
    void accept_printsTitleDetailsAndIndentedExplanation() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Alert alert = Alerts.gSingleAlert();
        try (ConsoleAlertSink sink = new ConsoleSinkOptions(new PrintStream(bytes, true, StandardCharsets.UTF_8), true)
                .open()) {
            sink.accept(alert);
        }
        String expected = "ALERT G-single-item: T1 -wr-> T2 -rw-> T1, a cycle of 2 transactions (indices 3, 7)\n"
                + "  id " + alert.id() + ", detected 2025-01-02T03:04:05.678Z, 12 ms after its last transaction;"
                + " checked against serializable\n"
                + "  " + alert.explanation().replace("\n", "\n  ") + "\n\n";
        assertEquals(expected, bytes.toString(StandardCharsets.UTF_8));
        // The explanation is Elle's text for this cycle.
        assertEquals(true, alert.explanation().contains("a contradiction!"), alert.explanation());
    }

    @Test
    void accept_withoutExplanations_printsTitleAndDetailsOnly() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Alert alert = Alert.of(Alerts.gSingle(), java.util.List.of(), Alerts.DETECTED_AT, Alert.UNKNOWN_DELAY,
                new io.isowatch.history.AtomTable());
        new ConsoleAlertSink(new ConsoleSinkOptions(new PrintStream(bytes, true, StandardCharsets.UTF_8), false))
                .accept(alert);
        assertEquals("ALERT " + alert.title() + "\n  id " + alert.id() + ", detected 2025-01-02T03:04:05.678Z\n\n",
                bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void accept_withConsole_printsTheFindingsPageUnderTheDetails() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Alert alert = Alerts.gSingleAlert();
        new ConsoleAlertSink(new ConsoleSinkOptions(new PrintStream(bytes, true, StandardCharsets.UTF_8), false,
                new io.isowatch.sinks.ConsoleLink("http://127.0.0.1:8642"))).accept(alert);
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals("  see http://127.0.0.1:8642/findings/" + alert.id(), lines[2]);
    }
}
