package io.isowatch.cli;

import io.isowatch.agent.transport.HistoryEventJson;
import io.isowatch.agent.transport.KafkaShipper;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;

/**
 * History events as the agent's {@link KafkaShipper} writes them to the history topic: key the
 * op's process in decimal, value {@link HistoryEventJson}, headers agent and seq. (The shipper
 * builds its records privately; this mirrors it with the shipper's own renderer and header names.)
 * Not thread-safe.
 */
final class ShippedRecords {

    private final String topic;
    private final HistoryEventJson json = new HistoryEventJson();

    ShippedRecords(String topic) {
        this.topic = topic;
    }

    ProducerRecord<byte[], byte[]> record(HistoryEvent event, AtomTable atoms) {
        byte[] key = Long.toString(event.op().process()).getBytes(StandardCharsets.US_ASCII);
        byte[] value = json.render(event, atoms);
        RecordHeaders headers = new RecordHeaders();
        headers.add(new RecordHeader(KafkaShipper.AGENT_HEADER, event.source().getBytes(StandardCharsets.UTF_8)));
        headers.add(new RecordHeader(KafkaShipper.SEQ_HEADER,
                Long.toString(event.sequence()).getBytes(StandardCharsets.US_ASCII)));
        return new ProducerRecord<>(topic, null, key, value, headers);
    }
}
