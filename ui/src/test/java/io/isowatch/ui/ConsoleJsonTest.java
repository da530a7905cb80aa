package io.isowatch.ui;

import io.isowatch.sinks.Alert;
import io.isowatch.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConsoleJsonTest {

    private final Alert hostile = TestAlerts.writeSkewAlert(TestAlerts.SCRIPT_KEY, TestAlerts.ATTRIBUTE_KEY,
            TestAlerts.HOSTILE_HISTORY + "\u2028</script><!--", TestAlerts.DETECTED_AT);

    @Test
    void view_ofHostileValues_holdsNoCharacterThatEndsAScriptOrALine_yetParsesBackUnchanged() {
        FindingView v = FindingView.of(hostile);
        String json = ConsoleJson.view(v, v.svg());
        for (String bad : List.of("<", ">", "&", "'", "\u2028", "\u2029", "\n")) {
            assertFalse(json.contains(bad), "raw " + bad + " in " + json);
        }
        Map<String, Object> back = Json.object(json);
        assertEquals(hostile.history(), back.get("history"));
        assertEquals(hostile.explanation(), back.get("explanation"));
        assertTrue(hostile.explanation().contains(TestAlerts.SCRIPT_KEY), "the key is in the explanation");
        assertEquals(v.svg(), back.get("svg"));
        assertEquals(Json.object(new String(io.isowatch.sinks.AlertJson.toBytes(hostile),
                java.nio.charset.StandardCharsets.UTF_8)), Json.object((String) back.get("alertJson")));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> txns = (List<Map<String, Object>>) back.get("txns");
        assertEquals(List.of("\"" + TestAlerts.ATTRIBUTE_KEY.replace("\"", "\\\"") + "\"", "\"" + TestAlerts.SCRIPT_KEY + "\""),
                txns.get(0).get("keys"));
    }

    @Test
    void row_isTheViewWithoutTheHeavyParts() {
        FindingView v = FindingView.of(hostile);
        Map<String, Object> row = Json.object(ConsoleJson.row(v));
        Map<String, Object> view = Json.object(ConsoleJson.view(v, v.svg()));
        for (Map.Entry<String, Object> e : row.entrySet()) {
            assertEquals(e.getValue(), view.get(e.getKey()), e.getKey());
        }
        assertFalse(row.containsKey("svg") || row.containsKey("explanation") || row.containsKey("alertJson"));
        assertEquals(7L, row.get("delayMs"));
        assertEquals("live", row.get("released"));
        assertEquals("", row.get("releasedReason"));
        assertEquals("2025-01-02T03:04:05.678Z", row.get("detectedAt"));
        assertEquals(List.of("repeatable-read"), row.get("not"));
    }

    @Test
    void overview_countsSummariesAndTheLatticesModels() {
        FindingStore store = new FindingStore(5);
        store.add(FindingView.of(hostile));
        store.noteUnreadable();
        Map<String, Object> o = Json.object(ConsoleJson.overview(store));
        assertEquals(Map.of("G2-item", 1L), o.get("counts"));
        assertEquals(1L, o.get("unreadable"));
        assertEquals(5L, o.get("capacity"));
        assertTrue(((List<?>) o.get("models")).containsAll(List.of("serializable", "snapshot-isolation",
                "read-committed", "strong-serializable")), o.get("models").toString());
        assertEquals(hostile.history(), ((Map<?, ?>) ((List<?>) o.get("histories")).get(0)).get("history"));
    }
}
