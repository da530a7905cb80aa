package io.isowatch.agent.transport;

import io.isowatch.localkafka.InJvmKafka;

import io.isowatch.agent.metrics.AgentMetricNames;
import io.isowatch.agent.metrics.AgentMetrics;
import io.isowatch.agent.recorder.HistoryRecorder;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.codec.BinaryEventCodec;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KafkaShipperTest {

    private static final AtomicInteger TOPICS = new AtomicInteger();

    @TempDir
    Path dir;

    static String newTopic(InJvmKafka kafka, String name) {
        String topic = name + "-" + TOPICS.incrementAndGet();
        kafka.createTopic(topic, 4);
        return topic;
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting until " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    static List<HistoryEvent> appendEvents(ChronicleHistoryLog log, String agent, long from, long to) {
        List<HistoryEvent> events = new ArrayList<>();
        for (long seq = from; seq < to; seq++) {
            HistoryEvent e = Events.event(agent, seq);
            log.append(e);
            events.add(e);
        }
        return events;
    }

    static Set<String> identities(List<HistoryEvent> events) {
        return events.stream().map(e -> e.source() + "/" + e.sequence()).collect(Collectors.toSet());
    }

    @Test
    void ship_roundTrip_everyEventArrivesOnceInTheAgentsOrderWithItsIdentity() {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = newTopic(kafka, "round-trip");
        PrometheusRegistry registry = new PrometheusRegistry();
        AgentMetrics metrics = new AgentMetrics(registry);
        int n = 20_000;
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, SpoolOptions.defaults(), new AtomTable(), metrics)) {
            List<HistoryEvent> events = appendEvents(log, "agent-rt", 0, n);
            assertEquals(n, Shipped.metric(registry, AgentMetricNames.SPOOL_BACKLOG));
            try (KafkaShipper shipper = KafkaShipper.start(log, kafka.bootstrapServers(), topic, metrics)) {
                await("the backlog drains", Duration.ofSeconds(30), () -> log.backlog() == 0);
                assertEquals(n, shipper.shipped());
                assertEquals(0, shipper.errors());
                assertTrue(shipper.isRunning());
            }
            assertEquals(n, Shipped.metric(registry, AgentMetricNames.EVENTS_SHIPPED));
            assertEquals(0, Shipped.metric(registry, AgentMetricNames.SHIP_ERRORS));
            assertEquals(0, Shipped.metric(registry, AgentMetricNames.SPOOL_BACKLOG));

            List<Shipped> shipped = Shipped.all(kafka.readTopic(topic, Shipped.covers(identities(events)),
                    Duration.ofSeconds(30)));
            assertEquals(n, shipped.size(), "no duplicates without failures");
            assertTrue(shipped.stream().allMatch(s -> BinaryEventCodec.startsWithMagic(s.value())),
                    "records are binary unless asked otherwise");
            Shipped.assertOrderedPerAgent(shipped);
            Shipped.assertExactly(events, Shipped.dedupe(shipped));
            assertEquals(1, shipped.stream().map(Shipped::partition).distinct().count(),
                    "8 processes of one agent, in one of the 4 partitions");
        }
    }

    @Test
    void ship_inJson_whenAsked_writesJepsenOpMapsWithTheSameEvents() {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = newTopic(kafka, "json");
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            List<HistoryEvent> events = appendEvents(log, "agent-json", 0, 1_000);
            ShipperOptions json = ShipperOptions.defaults().toBuilder().recordFormat(RecordFormat.JSON).build();
            try (KafkaShipper shipper = KafkaShipper.start(log, kafka.bootstrapServers(), topic, json, null)) {
                await("the backlog drains", Duration.ofSeconds(30), () -> log.backlog() == 0);
            }
            List<Shipped> shipped = Shipped.all(kafka.readTopic(topic, Shipped.covers(identities(events)),
                    Duration.ofSeconds(30)));
            assertTrue(shipped.stream().allMatch(s -> s.value()[0] == '{'), "each record is one JSON op map");
            Shipped.assertExactly(events, Shipped.dedupe(shipped));
        }
    }

    @Test
    void ship_acrossRestarts_resumesFromTheAcknowledgedPosition_andDuplicatesCarryTheSameIdentity() {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = newTopic(kafka, "restart");
        ShipperOptions smallRounds = ShipperOptions.defaults().toBuilder().maxEventsPerRound(500).build();
        List<HistoryEvent> events = new ArrayList<>();
        long rewindTo;
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            events.addAll(appendEvents(log, "agent-rs", 0, 10_000));
            try (KafkaShipper shipper = KafkaShipper.start(log, kafka.bootstrapServers(), topic, smallRounds, null)) {
                await("half is shipped", Duration.ofSeconds(30), () -> shipper.shipped() >= 5_000);
            }
            long acked = log.acknowledgedIndex();
            assertTrue(log.backlog() < 10_000, "the first shipper made progress");
            // Remember an earlier position: restoring it below acts like a crash after Kafka
            // acknowledged events but before the spool stored the new position.
            try (SpoolTailer t = log.tailer(ChronicleHistoryLog.NO_INDEX)) {
                for (int i = 0; i < 2_000; i++) {
                    t.next();
                }
                rewindTo = t.index();
            }
            assertTrue(rewindTo < acked);
        }
        new ShippedPosition(dir).write(rewindTo);
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            assertEquals(8_000, log.backlog(), "everything after the restored position is unshipped again");
            events.addAll(appendEvents(log, "agent-rs", 10_000, 20_000));
            try (KafkaShipper shipper = KafkaShipper.start(log, kafka.bootstrapServers(), topic, smallRounds, null)) {
                await("the backlog drains", Duration.ofSeconds(30), () -> log.backlog() == 0);
                assertEquals(18_000, shipper.shipped());
            }
        }
        List<Shipped> shipped = Shipped.all(kafka.readTopic(topic, Shipped.covers(identities(events)),
                Duration.ofSeconds(30)));
        assertTrue(shipped.size() > events.size(), "the restored position made the restart re-send events");
        Map<String, Shipped> deduped = Shipped.dedupe(shipped);
        Shipped.assertExactly(events, deduped);
        Shipped.assertOrderedPerAgent(shipped);
    }

    @Test
    void recorder_throughSpoolAndShipper_acrossAnAgentRestart_givesOneReadableHistory() {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = newTopic(kafka, "recorder");
        List<MicroOp> txn = List.of(new MicroOp.Append(1, 0), new MicroOp.Read(2, null));
        for (int run = 0; run < 2; run++) {
            ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null);
            HistoryEvent last = log.lastEvent();
            long first = last == null ? 0 : last.sequence() + 1;
            try (KafkaShipper shipper = KafkaShipper.start(log, kafka.bootstrapServers(), topic, null);
                 HistoryRecorder recorder = HistoryRecorder.builder("agent-rec", log).firstSequence(first).build()) {
                for (int i = 0; i < 50; i++) {
                    long process = run * 10 + i % 3;
                    long value = run * 100 + i;
                    recorder.invoke(process, List.of(new MicroOp.Append(1, value), new MicroOp.Read(2, null)));
                    recorder.ok(process, List.of(new MicroOp.Append(1, value), new MicroOp.Read(2, new long[] {value})));
                }
                await("the run's events ship", Duration.ofSeconds(20), () -> log.backlog() == 0);
            }
        }
        List<Shipped> shipped = Shipped.all(kafka.readTopic(topic, records -> records.size() >= 200, Duration.ofSeconds(20)));
        Map<String, Shipped> deduped = Shipped.dedupe(shipped);
        assertEquals(200, deduped.size());
        for (long seq = 0; seq < 200; seq++) {
            Shipped s = deduped.get("agent-rec/" + seq);
            assertEquals(seq, s.op().index(), "the recorder's index is its sequence, dense across the restart");
            assertEquals(txn.size(), s.op().value().size());
        }
        Shipped.assertOrderedPerAgent(shipped);
    }

    @Test
    void start_againstAnUnreachableCluster_keepsRetryingWithoutDisturbingAppends() {
        ShipperOptions impatient = ShipperOptions.defaults()
                .toBuilder().maxBlock(Duration.ofMillis(200))
                .deliveryTimeout(Duration.ofMillis(300))
                .retryBackoff(Duration.ofMillis(50), Duration.ofMillis(100)).build();
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null);
             KafkaShipper shipper = KafkaShipper.start(log, "127.0.0.1:1", "nowhere", impatient, null)) {
            appendEvents(log, "agent-dead", 0, 1_000);
            await("a failed round is counted", Duration.ofSeconds(20), () -> shipper.errors() >= 2);
            assertTrue(shipper.isRunning());
            assertNull(shipper.failure());
            assertEquals(1_000, log.backlog());
            assertEquals(ChronicleHistoryLog.NO_INDEX, log.acknowledgedIndex());
        }
    }

    @Test
    void options_rejectSettingsTheGuaranteesDependOn() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ShipperOptions.defaults().toBuilder().producerProperties(Map.of("acks", "1")).build());
        assertTrue(e.getMessage().contains("acks"), e.getMessage());
        assertFalse(ShipperOptions.defaults().producerProperties().containsKey("acks"));
    }
}
