package io.isowatch.agent.transport;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.codec.HistoryEventJson;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;

/**
 * History events as Kafka records of the history topic, the one definition the shipper, replay
 * and tests share: key the op's process in decimal, value {@link HistoryEventJson}, headers
 * {@value KafkaShipper#AGENT_HEADER} and {@value KafkaShipper#SEQ_HEADER}. Not thread-safe.
 */
public final class ShippedRecords {

    private final String topic;
    private final HistoryEventJson json = new HistoryEventJson();

    public ShippedRecords(String topic) {
        this.topic = topic;
    }

    public ProducerRecord<byte[], byte[]> record(HistoryEvent event, AtomTable atoms) {
        byte[] key = Long.toString(event.op().process()).getBytes(StandardCharsets.US_ASCII);
        byte[] value = json.render(event, atoms);
        RecordHeaders headers = new RecordHeaders();
        headers.add(new RecordHeader(KafkaShipper.AGENT_HEADER, event.source().getBytes(StandardCharsets.UTF_8)));
        headers.add(new RecordHeader(KafkaShipper.SEQ_HEADER,
                Long.toString(event.sequence()).getBytes(StandardCharsets.US_ASCII)));
        return new ProducerRecord<>(topic, null, key, value, headers);
    }
}
