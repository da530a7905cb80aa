package io.isowatch.job.serde;

import io.isowatch.sinks.Alert;
import io.isowatch.sinks.ConsoleLink;
import io.isowatch.testing.Json;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class KafkaRecordsTest {

    @Test
    void alerts_keyedByFindingId_withTheConsoleLinkOnlyWhenGiven() {
        Alert alert = new Alert("ab12", "agent-1", "G2-item", "G2-item: T1 -rw-> T2 -rw-> T1", List.of("serializable"),
                1_735_787_045_678L, 12, "Let: ...", "{\"type\":\"G2-item\",\"explanation\":\"Let: ...\"}");
        ProducerRecord<byte[], byte[]> linked = KafkaRecords.alerts("alerts", new ConsoleLink("http://console:8642"))
                .serialize(alert, null, null);
        assertEquals("alerts", linked.topic());
        assertEquals(alert.id(), new String(linked.key(), StandardCharsets.UTF_8));
        Map<String, Object> value = Json.object(new String(linked.value(), StandardCharsets.UTF_8));
        assertEquals("http://console:8642/findings/" + alert.id(), value.get("link"));
        Map<String, Object> plain = Json.object(new String(KafkaRecords.alerts("alerts").serialize(alert, null, null)
                .value(), StandardCharsets.UTF_8));
        assertFalse(plain.containsKey("link"));
        assertEquals(value.get("id"), plain.get("id"));
    }
}
