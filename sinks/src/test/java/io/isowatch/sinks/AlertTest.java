package io.isowatch.sinks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.anomaly.AnomalyType;
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
        assertEquals("live", json.get("released"));
        assertFalse(json.containsKey("released-reason"), "a live alert has no reason to wait");
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

    @Test
    void alertJson_releasedAtEnd_saysSoAndWhy() {
        Alert a = Alerts.gSingleAlert().released(Release.atEnd(AnomalyType.G_SINGLE_ITEM));
        Map<String, Object> json = Json.object(new String(AlertJson.toBytes(a), StandardCharsets.UTF_8));
        assertEquals("end-of-history", json.get("released"));
        assertEquals(Release.SETTLED_CYCLE_REASON, json.get("released-reason"));
        assertEquals(12L, json.get("detection-delay-ms"));
    }

    @Test
    void released_keepsEverythingElse_andTheOldConstructorIsLive() {
        Alert live = Alerts.gSingleAlert();
        assertEquals(Release.LIVE, live.release());
        assertFalse(live.releasedAtEnd());
        Alert atEnd = live.released(Release.atEnd(AnomalyType.GARBAGE_READ));
        assertTrue(atEnd.releasedAtEnd());
        assertEquals(live, atEnd.released(Release.LIVE));
        assertEquals(Release.LIVE, new Alert(live.id(), live.history(), live.type(), live.title(), live.models(),
                live.detectedAtMillis(), live.detectionDelayMillis(), live.explanation(), live.findingJson()).release());
    }

    @Test
    void release_reasonByCase_andReadBack() {
        assertEquals(Release.GARBAGE_READ_REASON, Release.atEnd(AnomalyType.GARBAGE_READ).reason());
        assertEquals(Release.SETTLED_CYCLE_REASON, Release.atEnd(AnomalyType.G2_ITEM).reason());
        assertEquals(Release.SETTLED_REASON, Release.atEnd(AnomalyType.EMPTY_TRANSACTION_GRAPH).reason());
        assertEquals(Release.LIVE, Release.read(null, null));
        assertEquals(Release.LIVE, Release.read("live", "ignored"));
        assertEquals(Release.LIVE, Release.read("something-newer", "?"));
        assertEquals(new Release(true, "why"), Release.read("end-of-history", "why"));
        assertEquals(Release.SETTLED_REASON, Release.read("end-of-history", null).reason());
        assertThrows(IllegalArgumentException.class, () -> new Release(true, ""));
        assertThrows(IllegalArgumentException.class, () -> new Release(false, "why"));
    }
}
