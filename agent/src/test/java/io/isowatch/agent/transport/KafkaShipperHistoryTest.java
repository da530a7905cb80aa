package io.isowatch.agent.transport;

import io.isowatch.agent.recorder.HistoryMember;
import io.isowatch.agent.recorder.HistoryRecorder;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.codec.BinaryEventCodec;
import io.isowatch.localkafka.InJvmKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.isowatch.agent.transport.KafkaShipperTest.await;
import static io.isowatch.agent.transport.KafkaShipperTest.newTopic;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A history several agents record together (issue 37) reaches Kafka named on every record: the
 * header {@value HistoryEvent#HISTORY_HEADER}, and in JSON the {@code history} field; the spool,
 * which does not hold the name, is the one an agent's own history would have.
 */
class KafkaShipperHistoryTest {

    private static final int EVENTS = 300;

    @TempDir
    Path dir;

    @Test
    void aNamedHistory_isNamedInTheHeaderOfEveryBinaryRecord_keyedByAgentAsBefore() {
        List<ConsumerRecord<byte[], byte[]>> records = recordAndShip(RecordFormat.BINARY, "orders");
        for (ConsumerRecord<byte[], byte[]> r : records) {
            assertEquals("orders", header(r, HistoryEvent.HISTORY_HEADER), "record " + r.offset());
            assertEquals("orders-1", new String(r.key(), StandardCharsets.UTF_8), "the key stays the agent id");
            assertTrue(BinaryEventCodec.startsWithMagic(r.value()));
            HistoryEvent decoded = new BinaryEventCodec(new AtomTable()).decode(r.value());
            assertFalse(decoded.namesHistory(), "the binary value is the spool's form, without the name");
        }
    }

    @Test
    void aNamedHistory_isNamedInTheHeaderAndTheFieldOfEveryJsonRecord() {
        List<ConsumerRecord<byte[], byte[]>> records = recordAndShip(RecordFormat.JSON, "orders");
        for (ConsumerRecord<byte[], byte[]> r : records) {
            assertEquals("orders", header(r, HistoryEvent.HISTORY_HEADER));
            String json = new String(r.value(), StandardCharsets.UTF_8);
            assertTrue(json.endsWith(",\"history\":\"orders\"}"), json);
        }
    }

    @Test
    void anAgentsOwnHistory_shipsWithoutTheHeader_asBefore() {
        List<ConsumerRecord<byte[], byte[]>> records = recordAndShip(RecordFormat.JSON, null);
        for (ConsumerRecord<byte[], byte[]> r : records) {
            assertNull(r.headers().lastHeader(HistoryEvent.HISTORY_HEADER));
            assertFalse(new String(r.value(), StandardCharsets.UTF_8).contains("\"history\""));
        }
    }

    /** A recorder of member 1 of {@code history} (or its own, when null) writes the spool that a shipper ships. */
    private List<ConsumerRecord<byte[], byte[]>> recordAndShip(RecordFormat format, String history) {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = newTopic(kafka, "history");
        ShipperOptions options = ShipperOptions.defaults().toBuilder().recordFormat(format).history(history).build();
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null);
             KafkaShipper shipper = KafkaShipper.start(log, kafka.bootstrapServers(), topic, options, null)) {
            HistoryRecorder.Builder builder = HistoryRecorder.builder("orders-1", log);
            HistoryMember member = new HistoryMember("orders", 1);
            if (history != null) {
                builder.history(history, 1);
            }
            HistoryRecorder recorder = builder.build();
            for (int i = 0; i < EVENTS / 2; i++) {
                long process = history == null ? i % 3 : member.process(i % 3);
                long value = history == null ? i + 1 : member.value(i + 1);
                recorder.invoke(process, List.of(new MicroOp.Append(1, value)));
                recorder.ok(process, List.of(new MicroOp.Append(1, value)));
            }
            await("the events ship", Duration.ofSeconds(30), () -> log.backlog() == 0);
            assertEquals(EVENTS, shipper.shipped());
        }
        List<ConsumerRecord<byte[], byte[]>> records = kafka.readTopic(topic, r -> r.size() >= EVENTS,
                Duration.ofSeconds(30));
        assertEquals(EVENTS, records.size());
        return records;
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
