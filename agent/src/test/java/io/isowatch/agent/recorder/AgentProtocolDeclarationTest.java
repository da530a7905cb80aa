package io.isowatch.agent.recorder;

import io.isowatch.agent.transport.ShippedRecords;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent protocol (decision 0016) is declared by a recorder that is told to, in its history's
 * first event only, and a shipped record of that event says so in a header too (a JSON value has
 * no field for it).
 */
class AgentProtocolDeclarationTest {

    private static List<HistoryEvent> recordTwoEvents(HistoryRecorder.Builder builder, InMemoryEventLog log) {
        try (HistoryRecorder recorder = builder.build()) {
            recorder.invoke(1, List.of(new MicroOp.Append(1, 1)));
            recorder.ok(1, List.of(new MicroOp.Append(1, 1)));
        }
        return log.events();
    }

    @Test
    void aDeclaringRecorder_marksItsFirstEventOnly() {
        InMemoryEventLog log = new InMemoryEventLog();
        List<HistoryEvent> events = recordTwoEvents(HistoryRecorder.builder("a", log).declaresAgentProtocol(true), log);
        assertTrue(events.get(0).declaresAgentProtocol());
        assertFalse(events.get(1).declaresAgentProtocol());
    }

    @Test
    void aRecorderDeclaresNothing_byDefault_norWhenItResumesPastTheFirstEvent() {
        InMemoryEventLog plain = new InMemoryEventLog();
        assertFalse(recordTwoEvents(HistoryRecorder.builder("a", plain), plain).get(0).declaresAgentProtocol());
        InMemoryEventLog resumed = new InMemoryEventLog();
        List<HistoryEvent> events = recordTwoEvents(
                HistoryRecorder.builder("a", resumed).declaresAgentProtocol(true).firstSequence(40), resumed);
        assertFalse(events.get(0).declaresAgentProtocol(), "event 40: the declaration was in event 0, shipped before");
    }

    @Test
    void theFirstEventsRecord_carriesTheProtocolHeader_inEitherFormat() {
        InMemoryEventLog log = new InMemoryEventLog();
        List<HistoryEvent> events = recordTwoEvents(HistoryRecorder.builder("a", log).declaresAgentProtocol(true), log);
        for (ShippedRecords records : List.of(new ShippedRecords("t"),
                new ShippedRecords("t", io.isowatch.agent.transport.RecordFormat.JSON))) {
            ProducerRecord<byte[], byte[]> first = records.record(events.get(0), new AtomTable());
            Header h = first.headers().lastHeader(HistoryEvent.PROTOCOL_HEADER);
            assertEquals(HistoryEvent.AGENT_PROTOCOL, new String(h.value(), StandardCharsets.US_ASCII));
            assertNull(records.record(events.get(1), new AtomTable()).headers().lastHeader(HistoryEvent.PROTOCOL_HEADER));
        }
    }
}
