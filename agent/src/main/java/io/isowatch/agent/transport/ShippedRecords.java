package io.isowatch.agent.transport;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.codec.BinaryEventCodec;
import io.isowatch.history.codec.HistoryEventJson;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * History events as Kafka records of the history topic, the one definition the shipper, replay,
 * the stream benchmark and tests share: key the agent id (UTF-8), value the event in the chosen
 * {@link RecordFormat} (by default the spool's binary form, {@link BinaryEventCodec}; or
 * {@link HistoryEventJson}), headers {@value KafkaShipper#AGENT_HEADER} and
 * {@value KafkaShipper#SEQ_HEADER}, {@value HistoryEvent#HISTORY_HEADER} on every event that
 * names its history ({@link HistoryEvent#namesHistory}: one several agents record together), and on a history's first event, when it declares the agent
 * protocol, {@value HistoryEvent#PROTOCOL_HEADER} = {@value HistoryEvent#AGENT_PROTOCOL}. Not thread-safe.
 *
 * <p><b>Why the agent is the key.</b> The job checks an agent's events as one history, in the
 * agent's sequence order (decision 0006). Keyed by agent, the whole history lies in one partition
 * in that order, so it reaches the job contiguous and nothing waits for another partition to
 * catch up. Keyed by process (before 2026-11-26), a history was spread over every partition, and
 * while the job worked through a backlog its readers drifted apart by seconds: the events ahead
 * of the slowest partition waited in the job's buffer, 600,000 of them per task in a drain of 3M
 * transactions (docs/benchmarks-archive.md, issue 15). The job reads the agent and sequence from the value (or, for a
 * JSON value without them, the headers) and does not look at the key, so it takes records keyed
 * either way.
 */
public final class ShippedRecords {

    private final String topic;
    private final RecordFormat format;
    private final HistoryEventJson json = new HistoryEventJson();
    /** Encodes with the table of the last call's events; replaced when a call brings another. */
    private BinaryEventCodec binary;

    /** Records in the default format, binary. */
    public ShippedRecords(String topic) {
        this(topic, RecordFormat.BINARY);
    }

    public ShippedRecords(String topic, RecordFormat format) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.format = Objects.requireNonNull(format, "format");
    }

    /** The record of {@code event}, whose string atoms, if any, {@code atoms} names. */
    public ProducerRecord<byte[], byte[]> record(HistoryEvent event, AtomTable atoms) {
        byte[] agent = event.source().getBytes(StandardCharsets.UTF_8);
        byte[] value;
        if (format == RecordFormat.JSON) {
            value = json.render(event, atoms);
        } else {
            if (binary == null || binary.atoms() != atoms) {
                binary = new BinaryEventCodec(atoms);
            }
            value = binary.encode(event);
        }
        RecordHeaders headers = new RecordHeaders();
        headers.add(new RecordHeader(KafkaShipper.AGENT_HEADER, agent));
        headers.add(new RecordHeader(KafkaShipper.SEQ_HEADER,
                Long.toString(event.sequence()).getBytes(StandardCharsets.US_ASCII)));
        if (event.namesHistory()) {
            // Every record, not only the first: the job keys each record by it, and the binary value does not hold it.
            headers.add(new RecordHeader(HistoryEvent.HISTORY_HEADER, event.history().getBytes(StandardCharsets.UTF_8)));
        }
        if (event.declaresAgentProtocol()) {
            // The binary form carries the declaration itself; a JSON value has no field for it.
            headers.add(new RecordHeader(HistoryEvent.PROTOCOL_HEADER,
                    HistoryEvent.AGENT_PROTOCOL.getBytes(StandardCharsets.US_ASCII)));
        }
        return new ProducerRecord<>(topic, null, agent, value, headers);
    }
}
