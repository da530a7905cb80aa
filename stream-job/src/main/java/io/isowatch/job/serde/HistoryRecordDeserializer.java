package io.isowatch.job.serde;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryFormatException;
import io.isowatch.history.codec.HistoryReader;
import io.isowatch.history.codec.ShippedIdentity;
import io.isowatch.job.DeadLetter;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.types.Either;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Turns the agent shipper's Kafka records into {@link HistoryEvent}s: value = one Jepsen op map in
 * JSON with {@code agent} and {@code seq} fields (headers {@code agent} and {@code seq} stand in
 * when the fields are absent).
 *
 * <p>A record that is not a readable event never fails the job: it is emitted as a
 * {@link Either#Left} {@link DeadLetter} carrying its text, topic, partition and offset and an
 * error naming the field and value at fault; a later operator routes it to the dead-letter
 * output (a source cannot emit side outputs). Non-client ops (a nemesis) are skipped and counted.
 * The op itself is parsed by the core's {@link HistoryReader}, so the job accepts exactly what
 * {@code isowatch check} accepts. Event time needs {@code time}: an op without it is malformed.
 *
 * <p>Cost: one pass of a JSON reader over the record's bytes ({@link HistoryReader#ofJson}: no
 * buffering or format detection), which hands over the identity fields as it passes them
 * ({@link ShippedIdentity}). Not thread-safe; Flink gives each source reader its own instance.
 * An event with string keys or values carries their names ({@link HistoryEvent#strings}), read
 * into a table made for that record alone.
 */
public final class HistoryRecordDeserializer implements KafkaRecordDeserializationSchema<Either<DeadLetter, HistoryEvent>> {

    private static final long serialVersionUID = 1L;

    /** Metric: records that became dead letters. */
    public static final String METRIC_MALFORMED = "malformedRecords";
    /** Metric: non-client ops (nemesis and the like) skipped. */
    public static final String METRIC_SKIPPED = "skippedRecords";

    private transient AtomTable scratch;
    private transient ShippedIdentity shipped;
    private transient Counter malformed;
    private transient Counter skipped;

    @Override
    public void open(DeserializationSchema.InitializationContext context) {
        malformed = context.getMetricGroup().counter(METRIC_MALFORMED);
        skipped = context.getMetricGroup().counter(METRIC_SKIPPED);
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<Either<DeadLetter, HistoryEvent>> out) {
        Either<DeadLetter, HistoryEvent> decoded = decode(record);
        if (decoded != null) {
            out.collect(decoded);
        }
    }

    /**
     * Decodes one record: a {@link Either#Right} event, a {@link Either#Left} dead letter, or null
     * for a non-client op that is skipped.
     */
    public Either<DeadLetter, HistoryEvent> decode(ConsumerRecord<byte[], byte[]> record) {
        if (malformed == null) {
            malformed = new SimpleCounter();
            skipped = new SimpleCounter();
        }
        if (shipped == null) {
            shipped = new ShippedIdentity();
        }
        byte[] value = record.value();
        if (value == null) {
            return deadLetter(record, "the record has no value (a tombstone?); expected a Jepsen op map in JSON");
        }
        String where = record.topic() + "-" + record.partition() + "@" + record.offset();
        try {
            if (scratch == null) {
                scratch = new AtomTable();
            }
            Op op;
            try (HistoryReader reader = HistoryReader.ofJson(where, value, scratch, shipped)) {
                op = reader.next();
                if (op == null && reader.opsSkipped() == 0) {
                    return deadLetter(record, "expected a JSON object (one Jepsen op map), found none");
                }
            }
            if (op == null) {
                skipped.inc();
                return null;
            }
            String agent = agent(record);
            long seq = seq(record);
            if (op.time() < 0) {
                return deadLetter(record, "field \"time\": missing; the job needs it for event time");
            }
            if (scratch.stringCount() == 0) { // the op holds integers only
                return Either.Right(new HistoryEvent(agent, seq, op));
            }
            HistoryEvent event = HistoryEvent.carrying(agent, seq, op, scratch);
            scratch = null; // the event took the names; the next record's strings are numbered afresh
            return Either.Right(event);
        } catch (Malformed | HistoryFormatException | IllegalArgumentException e) {
            return deadLetter(record, e.getMessage());
        } catch (UncheckedIOException e) {
            return deadLetter(record, "cannot read: " + e.getMessage());
        }
    }

    private DeadLetter deadLetterValue(ConsumerRecord<byte[], byte[]> record, String error) {
        byte[] value = record.value();
        String raw = value == null ? "" : new String(value, StandardCharsets.UTF_8);
        return new DeadLetter(DeadLetter.Kind.MALFORMED_RECORD, error, DeadLetter.clip(raw), record.topic(), record.partition(), record.offset());
    }

    private Either<DeadLetter, HistoryEvent> deadLetter(ConsumerRecord<byte[], byte[]> record, String error) {
        malformed.inc();
        return Either.Left(deadLetterValue(record, error));
    }

    /** The op map's {@code agent} field, else the {@code agent} header. */
    private String agent(ConsumerRecord<byte[], byte[]> record) {
        if (shipped.hasAgent()) {
            if (shipped.agent() == null) {
                throw new Malformed("field \"agent\": expected a string (the agent id), got " + shipped.agentText());
            }
            return shipped.agent();
        }
        String agent = header(record, "agent");
        if (agent == null) {
            throw new Malformed("field \"agent\": missing, and no \"agent\" header either");
        }
        return agent;
    }

    /** The op map's {@code seq} field, else the {@code seq} header. */
    private long seq(ConsumerRecord<byte[], byte[]> record) {
        if (shipped.hasSeq()) {
            if (shipped.seq() < 0) {
                throw new Malformed("field \"seq\": expected a non-negative integer, got " + shipped.seqText());
            }
            return shipped.seq();
        }
        String text = header(record, "seq");
        if (text == null) {
            throw new Malformed("field \"seq\": missing, and no \"seq\" header either");
        }
        long seq;
        try {
            seq = Long.parseLong(text);
        } catch (NumberFormatException e) {
            seq = -1;
        }
        if (seq < 0) {
            throw new Malformed("header \"seq\": expected a non-negative integer, got \"" + text + "\"");
        }
        return seq;
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        if (record.headers() == null) {
            return null;
        }
        Header h = record.headers().lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Override
    public TypeInformation<Either<DeadLetter, HistoryEvent>> getProducedType() {
        return JobTypes.DECODED;
    }

    /** A record-level fault; message names field and value. */
    private static final class Malformed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message, null, false, false);
        }
    }
}
