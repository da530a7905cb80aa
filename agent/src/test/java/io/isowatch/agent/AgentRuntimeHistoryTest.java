package io.isowatch.agent;

import io.isowatch.agent.client.EmbeddedStoreClient;
import io.isowatch.agent.recorder.HistoryMember;
import io.isowatch.agent.store.EmbeddedStore;
import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.agent.transport.RecordFormat;
import io.isowatch.agent.workload.WorkloadOptions;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.codec.BinaryEventCodec;
import io.isowatch.localkafka.InJvmKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AgentRuntime} as a member of a named history (issue 37), shipping to the in-JVM Kafka:
 * its default id, the history header on every record its shipper sends, and its clock offset.
 */
class AgentRuntimeHistoryTest {

    private static final WorkloadOptions WORKLOAD = WorkloadOptions.defaults().toBuilder().concurrency(2).txnLimit(100)
            .duration(Duration.ZERO).rate(0).keyCount(3).build();

    @Test
    void aMember_shipsEveryRecordNamingItsHistory_underItsDefaultId(@TempDir Path dir) throws Exception {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = "runtime-history-" + System.nanoTime();
        kafka.createTopic(topic, 2);
        AgentOptions options = new AgentOptions(null, dir.resolve("spool"), null, kafka.bootstrapServers(), topic, -1,
                RecordFormat.BINARY, InetAddress.getLoopbackAddress(), new HistoryMember("orders", 4),
                Duration.ofMinutes(-10));
        long events;
        long before = System.currentTimeMillis() * 1_000_000L;
        try (AgentRuntime agent = AgentRuntime.start(options)) {
            assertEquals("orders-4", agent.agentId(), "NAME-M when no id is given");
            assertEquals("orders", agent.recorder().history());
            agent.run(agent.runner(WORKLOAD, EmbeddedStoreClient.factory(
                    new EmbeddedStore(StoreOptions.of(IsolationLevel.SERIALIZABLE)))));
            assertEquals(0, agent.drain(Duration.ofSeconds(30)));
            events = agent.recorder().eventsRecorded();
        }
        long after = System.currentTimeMillis() * 1_000_000L;
        List<ConsumerRecord<byte[], byte[]>> records = kafka.readTopic(topic, r -> r.size() >= events,
                Duration.ofSeconds(30));
        assertEquals(events, records.size());
        long tenMinutes = Duration.ofMinutes(10).toNanos();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            Header h = r.headers().lastHeader(HistoryEvent.HISTORY_HEADER);
            assertNotNull(h, "record " + r.offset());
            assertEquals("orders", new String(h.value(), StandardCharsets.UTF_8));
            assertEquals("orders-4", new String(r.key(), StandardCharsets.UTF_8));
            HistoryEvent e = new BinaryEventCodec(new AtomTable()).decode(r.value());
            assertTrue(new HistoryMember("orders", 4).owns(e.op().process()), "process " + e.op().process());
            long time = e.op().time();
            assertTrue(time >= before - tenMinutes - 1_000_000 && time <= after - tenMinutes + 1_000_000,
                    "time " + time + " is ten minutes before the run");
        }
    }
}
