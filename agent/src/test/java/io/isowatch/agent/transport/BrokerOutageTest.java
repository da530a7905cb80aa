package io.isowatch.agent.transport;

import io.isowatch.localkafka.InJvmKafka;

import io.isowatch.history.HistoryEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stops the Kafka broker mid-run: appends stay fast and succeed, the backlog grows on disk, and
 * once the broker is back the backlog drains with nothing lost. Uses a cluster of its own, so
 * that stopping its broker cannot disturb tests on the shared one.
 */
class BrokerOutageTest {

    @TempDir
    Path dir;

    @Test
    void brokerStoppedAndRestarted_appendsAreUnaffected_andTheBacklogDrains() {
        try (InJvmKafka kafka = InJvmKafka.startDedicated()) {
            kafka.createTopic("outage", 4);
            List<HistoryEvent> events = new ArrayList<>();
            try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null);
                 KafkaShipper shipper = KafkaShipper.start(log, kafka.bootstrapServers(), "outage", null)) {
                events.addAll(KafkaShipperTest.appendEvents(log, "agent-o", 0, 2_000));
                KafkaShipperTest.await("the first events ship", Duration.ofSeconds(20), () -> log.backlog() == 0);

                kafka.stopBroker();
                long start = System.nanoTime();
                events.addAll(KafkaShipperTest.appendEvents(log, "agent-o", 2_000, 12_000));
                long appendNanos = System.nanoTime() - start;
                System.err.printf("BrokerOutageTest: 10,000 appends during the outage took %.1f ms%n", appendNanos / 1e6);
                assertTrue(appendNanos < Duration.ofSeconds(2).toNanos(), "appends do not wait for Kafka");
                sleep(1_000);
                assertEquals(10_000, log.backlog(), "nothing ships while the broker is down; the backlog is on disk");
                long shippedBefore = shipper.shipped();

                kafka.startBroker();
                KafkaShipperTest.await("the backlog drains after recovery", Duration.ofSeconds(25), () -> log.backlog() == 0);
                assertEquals(10_000, shipper.shipped() - shippedBefore);
                assertTrue(shipper.isRunning());
            }
            List<Shipped> shipped = Shipped.all(kafka.readTopic("outage", Shipped.covers(KafkaShipperTest.identities(events)),
                    Duration.ofSeconds(20)));
            Shipped.assertExactly(events, Shipped.dedupe(shipped));
            Shipped.assertOrderedPerAgent(shipped);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
