package io.isowatch.sinks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.isowatch.anomaly.FindingId;
import io.isowatch.history.AtomTable;
import io.isowatch.testing.Json;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

class AlertTest {

    @Test
    void of_computesTheStableId_andSortsModels() {
        Alert a = Alert.of(Alerts.gSingle(), List.of("snapshot-isolation", "serializable"), Alerts.DETECTED_AT, 5,
                new AtomTable());
        assertEquals(FindingId.of(Alerts.gSingle()), a.id());
        assertEquals(List.of("serializable", "snapshot-isolation"), a.models());
        assertEquals("G-single-item", a.type());
    }

    @Test
    void detectionDelay_belowUnknown_isRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> Alert.of(Alerts.gSingle(), List.of(), 0, -2, new AtomTable()));
        assertFalse(Alert.of(Alerts.gSingle(), List.of(), 0, Alert.UNKNOWN_DELAY, new AtomTable()).hasDetectionDelay());
    }

    @Test
    void alertJson_holdsEnvelopeAndFindingBody() {
        Alert a = Alerts.gSingleAlert();
        Map<String, Object> json = Json.object(new String(AlertJson.toBytes(a), StandardCharsets.UTF_8));
        assertEquals(a.id(), json.get("id"));
        assertEquals("G-single-item", json.get("type"));
        assertEquals(a.title(), json.get("title"));
        assertEquals(List.of("serializable"), json.get("models"));
        assertEquals("2025-01-02T03:04:05.678Z", json.get("detected-at"));
        assertEquals(Alerts.DETECTED_AT, json.get("detected-at-ms"));
        assertEquals(12L, json.get("detection-delay-ms"));
        assertEquals(1L, json.get("version"));
        @SuppressWarnings("unchecked")
        Map<String, Object> finding = (Map<String, Object>) json.get("finding");
        assertEquals(Json.object(io.isowatch.explain.FindingJson.toJson(Alerts.gSingle(), new AtomTable())), finding);
        assertEquals(a.explanation(), finding.get("explanation"));
    }

    @Test
    void alertJson_unknownDelay_isNull() {
        Alert a = Alert.of(Alerts.gSingle(), List.of(), Alerts.DETECTED_AT, Alert.UNKNOWN_DELAY, new AtomTable());
        Map<String, Object> json = Json.object(new String(AlertJson.toBytes(a), StandardCharsets.UTF_8));
        assertEquals(true, json.containsKey("detection-delay-ms"));
        assertEquals(null, json.get("detection-delay-ms"));
    }
}
