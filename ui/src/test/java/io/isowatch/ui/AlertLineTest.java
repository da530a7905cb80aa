package io.isowatch.ui;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.Release;
import io.isowatch.sinks.AlertJson;
import io.isowatch.sinks.ConsoleLink;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AlertLineTest {

    @Test
    void parse_readsBackWhatAlertJsonWrote_linkOrNot() {
        Alert a = TestAlerts.writeSkewAlert(TestAlerts.SCRIPT_KEY, "b", "agent-7", TestAlerts.DETECTED_AT);
        assertEquals(a, AlertLine.parse(new String(AlertJson.toBytes(a), StandardCharsets.UTF_8)));
        assertEquals(a, AlertLine.parse(new String(AlertJson.toBytes(a, new ConsoleLink("http://c:1")),
                StandardCharsets.UTF_8)));
        Alert single = TestAlerts.abortedReadAlert("k", "", 5);
        assertEquals(single, AlertLine.parse(new String(AlertJson.toBytes(single), StandardCharsets.UTF_8)),
                "a single history writes no history field");
    }

    /** A history several agents record names the agents of each finding; one agent's names none. */
    @Test
    void parse_readsTheAgents_andALineWithoutThemAsNone() {
        Alert a = TestAlerts.writeSkewAlert("a", "b", "shop", TestAlerts.DETECTED_AT).recordedBy(
                java.util.List.of("shop-2", "shop-0"));
        String json = new String(AlertJson.toBytes(a), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"agents\":[\"shop-0\",\"shop-2\"]"), json);
        assertEquals(a, AlertLine.parse(json));
        Alert lone = TestAlerts.writeSkewAlert("a", "b", "agent-7", TestAlerts.DETECTED_AT);
        assertFalse(new String(AlertJson.toBytes(lone), StandardCharsets.UTF_8).contains("agents"));
        assertEquals(java.util.List.of(), AlertLine.parse(new String(AlertJson.toBytes(lone),
                StandardCharsets.UTF_8)).agents());
    }

    @Test
    void parse_readsTheRelease_andALineWithoutItAsLive() {
        Alert a = TestAlerts.writeSkewAlert("a", "b", "agent-7", TestAlerts.DETECTED_AT)
                .released(Release.atEnd(AnomalyType.G2_ITEM));
        String json = new String(AlertJson.toBytes(a), StandardCharsets.UTF_8);
        assertEquals(a, AlertLine.parse(json));
        // A line written before alerts said how they were released.
        String old = json.replaceAll(",\"released\":\"[^\"]*\",\"released-reason\":\"[^\"]*\"", "");
        assertFalse(old.contains("released"), old);
        assertEquals(a.released(Release.LIVE), AlertLine.parse(old));
    }

    @Test
    void parse_refusesWhatIsNoAlert_withTheReason() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AlertLine.parse("{oops"))
                .getMessage().startsWith("not JSON"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AlertLine.parse("[1]"))
                .getMessage().contains("object"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AlertLine.parse("{\"id\":\"x\",\"type\":\"G0\",\"finding\":{}}"))
                .getMessage().contains("title"));
        String newer = "{\"id\":\"x\",\"type\":\"G0\",\"title\":\"t\",\"version\":" + (AlertJson.VERSION + 1)
                + ",\"finding\":{}}";
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AlertLine.parse(newer))
                .getMessage().contains("upgrade isowatch"));
    }
}
