package io.isowatch.sinks.kafka;

import io.isowatch.testkit.InJvmKafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.isowatch.history.AtomTable;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertJson;
import io.isowatch.sinks.Alerts;
import io.isowatch.testing.Json;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Kafka sink against a real KRaft broker in the test JVM. */
class KafkaAlertSinkTest {

    @Test
    void accept_producesRecordsKeyedByFindingId_withTheAlertJson() {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = "alerts-keyed";
        kafka.createTopic(topic, 3);
        AtomTable atoms = new AtomTable();
        Alert gSingle = Alerts.gSingleAlert();
        Alert order = Alert.of(Alerts.incompatibleOrder(atoms), List.of("read-committed"), Alerts.DETECTED_AT, 3,
                atoms);
        // The same finding reported again, as after a job restart: a later detection, the same id.
        Alert repeat = Alert.of(Alerts.gSingle(), List.of("serializable"), Alerts.DETECTED_AT + 5_000, 5_012,
                new AtomTable());
        assertEquals(gSingle.id(), repeat.id());
        try (KafkaAlertSink sink = KafkaSinkOptions.of(kafka.bootstrapServers()).withTopic(topic).open()) {
            sink.accept(gSingle);
            sink.accept(order);
            sink.accept(repeat);
            sink.flush();
            assertEquals(3, sink.acknowledged());
            assertEquals(0, sink.failed());
        }

        List<ConsumerRecord<byte[], byte[]>> records = kafka.readTopic(topic, r -> r.size() >= 3, Duration.ofSeconds(30));
        assertEquals(3, records.size());
        Map<String, ConsumerRecord<byte[], byte[]>> byId = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            Map<String, Object> json = Json.object(new String(r.value(), StandardCharsets.UTF_8));
            String key = new String(r.key(), StandardCharsets.UTF_8);
            assertEquals(key, json.get("id"), "key = id");
            byId.merge(key, r, (a, b) -> {
                assertEquals(a.partition(), b.partition(), "repeats of a finding share a partition");
                return a.offset() < b.offset() ? a : b;
            });
        }
        assertEquals(2, byId.size(), "consumers de-duplicate by key");
        assertArrayEquals(AlertJson.toBytes(gSingle), byId.get(gSingle.id()).value());
        Map<String, Object> json = Json.object(new String(byId.get(order.id()).value(), StandardCharsets.UTF_8));
        assertEquals("incompatible-order", json.get("type"));
        assertEquals(List.of("read-committed"), json.get("models"));
        assertEquals(order.explanation(), ((Map<?, ?>) json.get("finding")).get("explanation"));
    }

    @Test
    void accept_unreachableBroker_doesNotThrow_butFlushReportsTheFailure() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        KafkaSinkOptions options = KafkaSinkOptions.of("127.0.0.1:" + port).withDeliveryTimeout(Duration.ofSeconds(1))
                .withProducerProperties(Map.of("max.block.ms", "500"));
        try (KafkaAlertSink sink = options.open()) {
            sink.accept(Alerts.gSingleAlert());
            assertEquals(1, sink.failed());
            assertThrows(IllegalStateException.class, sink::flush);
            sink.flush(); // reported once
        }
    }

    @Test
    void options_rejectTheSettingsTheSinkOwns() {
        assertThrows(IllegalArgumentException.class,
                () -> KafkaSinkOptions.of("localhost:9092").withProducerProperties(Map.of("acks", "1")));
        assertThrows(IllegalArgumentException.class,
                () -> KafkaSinkOptions.of("localhost:9092").withProducerProperties(Map.of("enable.idempotence", "false")));
        assertThrows(IllegalArgumentException.class, () -> KafkaSinkOptions.of("localhost:9092").withTopic(" "));
    }
}
