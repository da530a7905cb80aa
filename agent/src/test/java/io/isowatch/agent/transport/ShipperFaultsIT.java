package io.isowatch.agent.transport;

import io.isowatch.agent.metrics.AgentMetricNames;
import io.isowatch.agent.metrics.AgentMetrics;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.localkafka.InJvmKafka;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipper's faults against a real broker and a real spool: each is reported in one line
 * naming the cause, shown by the stalled gauge, and shipping resumes or continues with nothing
 * lost. Each test takes seconds (a dedicated broker for the outage, the shared one otherwise).
 */
class ShipperFaultsIT {

    private static final Duration STALL = Duration.ofSeconds(1);

    @TempDir
    Path dir;

    /** Notices as they arrive, each with its arrival time. */
    private static final class Notices {
        private final long start = System.nanoTime();
        private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        private final List<Long> at = Collections.synchronizedList(new ArrayList<>());

        void accept(String line) {
            at.add(System.nanoTime() - start);
            lines.add(line);
        }

        List<String> lines() {
            synchronized (lines) {
                return List.copyOf(lines);
            }
        }

        long millisUntil(String fragment) {
            synchronized (lines) {
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).contains(fragment)) {
                        return Duration.ofNanos(at.get(i)).toMillis();
                    }
                }
            }
            return -1;
        }
    }

    private static ShipperOptions quickStall() {
        return ShipperOptions.defaults().toBuilder().stall(STALL, Duration.ofSeconds(2))
                .retryBackoff(Duration.ofMillis(100), Duration.ofMillis(500)).build();
    }

    @Test
    void missingTopic_isReportedInOneLineWithinSeconds_stallsVisibly_andShipsOnceTheTopicExists() {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = "not-created-" + System.nanoTime();
        PrometheusRegistry registry = new PrometheusRegistry();
        AgentMetrics metrics = new AgentMetrics(registry);
        Notices notices = new Notices();
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, SpoolOptions.defaults(), new AtomTable(), metrics);
             KafkaShipper shipper = KafkaShipper.start(log, kafka.bootstrapServers(), topic, quickStall(), metrics,
                     notices::accept)) {
            List<HistoryEvent> events = KafkaShipperTest.appendEvents(log, "agent-mt", 0, 1_000);
            KafkaShipperTest.await("the missing topic is reported", Duration.ofSeconds(10),
                    () -> notices.millisUntil("does not exist") >= 0);
            long millis = notices.millisUntil("does not exist");
            String line = notices.lines().get(0);
            System.err.printf("ShipperFaultsIT: missing topic reported after %d ms: %s%n", millis, line);
            assertTrue(millis < 6_000, "within seconds: " + millis + " ms");
            assertTrue(line.contains("topic '" + topic + "'") && line.contains(kafka.bootstrapServers())
                    && line.contains("--create --topic " + topic) && line.contains("wait in the spool"), line);
            assertEquals(1, line.lines().count(), "one line");
            assertEquals(1, Shipped.metric(registry, AgentMetricNames.SHIPPER_STALLED));
            assertTrue(shipper.stallReason().contains("does not exist"), shipper.stallReason());
            sleep(3 * STALL.toMillis());
            assertEquals(1, Shipped.metric(registry, AgentMetricNames.SHIPPER_STALLED), "the stall lasts");
            assertTrue(shipper.stallReason().contains("does not exist"), shipper.stallReason());
            assertEquals(1_000, log.backlog());
            List<String> lines = notices.lines();
            assertTrue(lines.size() >= 2, "the warning repeats every 2 s while the stall lasts: " + lines);
            assertTrue(lines.subList(1, lines.size()).stream().allMatch(l -> l.startsWith("shipping still stalled after ")
                    && l.contains("does not exist")), lines.toString());

            kafka.createTopic(topic, 1);
            KafkaShipperTest.await("the backlog drains once the topic exists", Duration.ofSeconds(20),
                    () -> log.backlog() == 0);
            KafkaShipperTest.await("the stall ends", Duration.ofSeconds(5), () -> shipper.stallReason() == null);
            assertEquals(0, Shipped.metric(registry, AgentMetricNames.SHIPPER_STALLED));
            assertTrue(notices.millisUntil("resumed") >= 0, notices.lines().toString());
            Shipped.assertExactly(events, Shipped.dedupe(Shipped.all(kafka.readTopic(topic,
                    Shipped.covers(KafkaShipperTest.identities(events)), Duration.ofSeconds(20)))));
        }
    }

    @Test
    void unreachableBroker_isReportedWithinSeconds() {
        Notices notices = new Notices();
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null);
             KafkaShipper shipper = KafkaShipper.start(log, "127.0.0.1:1", "isowatch.history", quickStall(), null,
                     notices::accept)) {
            KafkaShipperTest.await("the unreachable broker is reported", Duration.ofSeconds(12),
                    () -> notices.millisUntil("does not answer") >= 0);
            assertTrue(notices.millisUntil("does not answer") < 8_000, notices.lines().toString());
            assertTrue(notices.lines().get(0).contains("Kafka at 127.0.0.1:1 does not answer")
                    && notices.lines().get(0).contains("check --bootstrap-servers"), notices.lines().get(0));
            assertTrue(shipper.isRunning(), "it keeps retrying");
        }
    }

    @Test
    void brokerStoppedUnderLoad_warnsWhileDown_andLosesNothing() throws Exception {
        try (InJvmKafka kafka = InJvmKafka.startDedicated()) {
            kafka.createTopic("outage", 2);
            PrometheusRegistry registry = new PrometheusRegistry();
            AgentMetrics metrics = new AgentMetrics(registry);
            Notices notices = new Notices();
            List<HistoryEvent> events = Collections.synchronizedList(new ArrayList<>());
            AtomicBoolean loading = new AtomicBoolean(true);
            AtomicLong seq = new AtomicLong();
            try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, SpoolOptions.defaults(), new AtomTable(), metrics);
                 KafkaShipper shipper = KafkaShipper.start(log, kafka.bootstrapServers(), "outage", quickStall(),
                         metrics, notices::accept)) {
                Thread load = new Thread(() -> {
                    while (loading.get()) {
                        long s = seq.getAndIncrement();
                        events.add(KafkaShipperTest.appendEvents(log, "agent-out", s, s + 1).get(0));
                        if (s % 10 == 0) {
                            sleep(1); // about 10,000 events/s
                        }
                    }
                });
                load.start();
                KafkaShipperTest.await("shipping is under way", Duration.ofSeconds(20),
                        () -> shipper.shipped() > 2_000 && shipper.stallReason() == null);
                int before = notices.lines().size();

                kafka.stopBroker();
                KafkaShipperTest.await("the stall is reported while the broker is down", Duration.ofSeconds(15),
                        () -> notices.lines().stream().skip(before).anyMatch(l -> l.startsWith("shipping stalled")));
                assertEquals(1, Shipped.metric(registry, AgentMetricNames.SHIPPER_STALLED));
                String warning = notices.lines().stream().skip(before).filter(l -> l.startsWith("shipping stalled"))
                        .findFirst().get();
                System.err.println("ShipperFaultsIT: while the broker was down: " + warning);
                assertTrue(warning.contains("does not answer") || warning.contains("no round acknowledged"), warning);
                assertTrue(warning.contains("event(s) wait in the spool " + dir), warning);

                kafka.startBroker();
                KafkaShipperTest.await("shipping resumes", Duration.ofSeconds(20),
                        () -> notices.lines().stream().skip(before).anyMatch(l -> l.contains("resumed")));
                loading.set(false);
                load.join();
                KafkaShipperTest.await("the backlog drains", Duration.ofSeconds(20), () -> log.backlog() == 0);
                assertEquals(0, Shipped.metric(registry, AgentMetricNames.SHIPPER_STALLED));
            }
            List<Shipped> shipped = Shipped.all(kafka.readTopic("outage",
                    Shipped.covers(KafkaShipperTest.identities(events)), Duration.ofSeconds(20)));
            Shipped.assertExactly(events, Shipped.dedupe(shipped));
            Shipped.assertOrderedPerAgent(shipped);
            System.err.printf("ShipperFaultsIT: %,d events recorded under load across the outage, all shipped%n",
                    events.size());
        }
    }

    @Test
    void corruptRecord_isQuarantined_countedAndSkipped_andShippingContinuesPastIt() throws Exception {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = KafkaShipperTest.newTopic(kafka, "corrupt");
        List<HistoryEvent> events = new ArrayList<>();
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            events.addAll(KafkaShipperTest.appendEvents(log, "agent-c", 0, 1_000));
        }
        long badIndex = CorruptRecords.append(dir, CorruptRecords.badSequence("agent-c", 1_000));
        PrometheusRegistry registry = new PrometheusRegistry();
        AgentMetrics metrics = new AgentMetrics(registry);
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, SpoolOptions.defaults(), new AtomTable(), metrics);
             KafkaShipper shipper = KafkaShipper.start(log, kafka.bootstrapServers(), topic, quickStall(), metrics,
                     line -> { })) {
            events.addAll(KafkaShipperTest.appendEvents(log, "agent-c", 1_000, 2_000));
            KafkaShipperTest.await("everything, the corrupt record too, is behind the shipped position",
                    Duration.ofSeconds(20), () -> log.backlog() == 0);
            assertTrue(log.acknowledgedIndex() > badIndex, "the shipped position moved past the record");
            assertEquals(2_000, shipper.shipped());
            assertTrue(shipper.isRunning());
            assertNull(shipper.failure());
            assertEquals(1, Shipped.metric(registry, AgentMetricNames.SPOOL_QUARANTINED));
        }
        List<String> quarantine = Files.readAllLines(dir.resolve("quarantine.jsonl"));
        assertEquals(1, quarantine.size());
        assertTrue(quarantine.get(0).startsWith("{\"index\":" + badIndex + ","), quarantine.get(0));
        Shipped.assertExactly(events, Shipped.dedupe(Shipped.all(kafka.readTopic(topic,
                Shipped.covers(KafkaShipperTest.identities(events)), Duration.ofSeconds(20)))));
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            assertEquals(0, log.backlog(), "a restart does not meet the record again");
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
