package io.isowatch.ui.intake;

import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertJson;
import io.isowatch.localkafka.InJvmKafka;
import io.isowatch.ui.FindingStore;
import io.isowatch.ui.TestAlerts;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The topic follower against a real (in-JVM KRaft) broker, records written as the job writes them. */
class AlertsTopicFollowerIT {

    private static ProducerRecord<byte[], byte[]> record(String topic, int partition, Alert a) {
        return new ProducerRecord<>(topic, partition, a.id().getBytes(StandardCharsets.UTF_8), AlertJson.toBytes(a));
    }

    private static void await(FindingStore store, int size) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (store.size() < size && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    @Test
    void follower_readsEveryPartitionFromItsStart_thenNewRecords_andDropsRepeats() throws Exception {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = "alerts-follow";
        kafka.createTopic(topic, 2);
        Alert a = TestAlerts.writeSkewAlert("a", "b", 0, "agent-1", 1);
        Alert b = TestAlerts.writeSkewAlert("c", "d", 10, "agent-2", 2);
        kafka.send(List.of(record(topic, 0, a), record(topic, 1, b)));
        FindingStore store = new FindingStore(10);
        try (AlertsTopicFollower f = AlertsTopicFollower.start(kafka.bootstrapServers(), topic, new AlertIntake(store, topic))) {
            await(store, 2);
            assertEquals(2, store.size(), "both partitions read from the beginning");
            Alert c = TestAlerts.abortedReadAlert("z", "agent-1", 3);
            // The job restored and sent a again; then a new finding and a record that is no alert.
            kafka.send(List.of(record(topic, 0, a), record(topic, 1, c),
                    new ProducerRecord<>(topic, 1, null, "garbage".getBytes(StandardCharsets.UTF_8))));
            await(store, 3);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (f.records() < 5 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(5, f.records());
            assertEquals(3, store.size());
            assertEquals(1, store.repeats());
            assertEquals(1, store.unreadable());
        }
    }

    @Test
    void follower_waitsForATopicCreatedAfterItStarted() throws Exception {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = "alerts-later";
        FindingStore store = new FindingStore(10);
        try (AlertsTopicFollower f = AlertsTopicFollower.start(kafka.bootstrapServers(), topic, new AlertIntake(store, topic))) {
            Thread.sleep(1500);
            kafka.createTopic(topic, 1);
            kafka.send(List.of(record(topic, 0, TestAlerts.writeSkewAlert("a", "b", 0, "h", 1))));
            await(store, 1);
            assertEquals(1, store.size());
        }
    }
}
