package io.isowatch.job.serde;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;
import io.isowatch.history.codec.BinaryEventCodec;
import io.isowatch.history.codec.BinaryFormatException;
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
import java.util.HexFormat;

/**
 * Turns the history topic's Kafka records into {@link HistoryEvent}s. A record's value is either
 * <ul>
 *   <li>the event in the binary form of the agent's spool ({@link BinaryEventCodec}, told apart by
 *       its magic number), which the agent ships by default: identity, op and the names of its
 *       string atoms in one compact record, decoded without a text parser; or</li>
 *   <li>one Jepsen op map in JSON with {@code agent} and {@code seq} fields (headers {@code agent}
 *       and {@code seq} stand in when the fields are absent): what the agent shipped before
 *       binary records, and what any other producer may write.</li>
 * </ul>
 *
 * <p>The history a record belongs to (issue 37: several agents recording one history) is the
 * JSON value's {@code history} field, else the header {@value HistoryEvent#HISTORY_HEADER} (how
 * the agent names it beside a binary value, which does not hold it); the event then
 * {@link HistoryEvent#inHistory names} it. A record with neither belongs to its agent's own
 * history, as before ({@link HistoryEvent#history()} is then the agent id).
 *
 * <p>A record that is not a readable event never fails the job: it is emitted as a
 * {@link Either#Left} {@link DeadLetter} carrying its text, topic, partition and offset and an
 * error naming the field and value at fault; a later operator routes it to the dead-letter
 * output (a source cannot emit side outputs). Non-client ops (a nemesis) are skipped and counted.
 * The op itself is parsed by the core's {@link HistoryReader}, so the job accepts exactly what
 * {@code isowatch check} accepts. Event time needs {@code time}: an op without it is malformed.
 *
 * <p>Cost: for a binary record, one pass of the binary decoder; for JSON, one pass of a JSON reader over the record's bytes ({@link HistoryReader#ofJson}: no
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
    /** Decodes binary records into {@link #scratch}; replaced with it. */
    private transient BinaryEventCodec binary;
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
            return deadLetter(record, "the record has no value (a tombstone?); expected a history event, binary or a Jepsen op map in JSON");
        }
        if (BinaryEventCodec.startsWithMagic(value)) {
            return decodeBinary(record, value);
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
            String history = jsonHistory(record);
            Either<DeadLetter, HistoryEvent> event = named(event(record, agent, seq, op), history);
            return event.isRight() && declaresAgentProtocol(record, seq)
                    ? Either.Right(event.right().declaringAgentProtocol()) : event;
        } catch (Malformed | HistoryFormatException | IllegalArgumentException e) {
            return deadLetter(record, e.getMessage());
        } catch (UncheckedIOException e) {
            return deadLetter(record, "cannot read: " + e.getMessage());
        }
    }

    /** A record in the spool's binary form: the agent and sequence travel inside it. */
    private Either<DeadLetter, HistoryEvent> decodeBinary(ConsumerRecord<byte[], byte[]> record, byte[] value) {
        if (scratch == null) {
            scratch = new AtomTable();
        }
        if (binary == null || binary.atoms() != scratch) {
            binary = new BinaryEventCodec(scratch);
        }
        HistoryEvent decoded;
        try {
            decoded = binary.decodeKeeping(value); // Kafka gives each record its own array
        } catch (BinaryFormatException e) {
            return deadLetter(record, "binary event record, at byte " + e.offset() + ": " + e.getMessage());
        }
        String history;
        try {
            history = header(record, HistoryEvent.HISTORY_HEADER);
        } catch (Malformed e) {
            return deadLetter(record, e.getMessage());
        }
        if (decoded.encoding() != null && decoded.op().time() >= 0) {
            // integers only: the record's bytes travel on as they came
            return named(Either.Right(decoded), history);
        }
        Either<DeadLetter, HistoryEvent> event = named(event(record, decoded.source(), decoded.sequence(), decoded.op()),
                history);
        return event.isRight() && decoded.declaresAgentProtocol() ? Either.Right(event.right().declaringAgentProtocol()) : event;
    }

    /** The event of a decoded op, or a dead letter when it has no time. */
    private Either<DeadLetter, HistoryEvent> event(ConsumerRecord<byte[], byte[]> record, String agent, long seq, Op op) {
        if (op.time() < 0) {
            return deadLetter(record, "field \"time\": missing; the job needs it for event time");
        }
        if (scratch.stringCount() == 0) { // the op holds integers only
            return Either.Right(new HistoryEvent(agent, seq, op));
        }
        HistoryEvent event = HistoryEvent.carrying(agent, seq, op, scratch);
        scratch = null; // the event took the names; the next record's strings are numbered afresh
        return Either.Right(event);
    }

    private DeadLetter deadLetterValue(ConsumerRecord<byte[], byte[]> record, String error) {
        byte[] value = record.value();
        String raw = value == null ? ""
                : BinaryEventCodec.startsWithMagic(value) ? "binary event record, " + value.length + " bytes: "
                        + HexFormat.of().formatHex(value, 0, Math.min(value.length, DeadLetter.MAX_RAW_CHARS / 2))
                : new String(value, StandardCharsets.UTF_8);
        return new DeadLetter(DeadLetter.Kind.MALFORMED_RECORD, error, DeadLetter.clip(raw), record.topic(), record.partition(), record.offset());
    }

    private Either<DeadLetter, HistoryEvent> deadLetter(ConsumerRecord<byte[], byte[]> record, String error) {
        malformed.inc();
        return Either.Left(deadLetterValue(record, error));
    }

    /** The event in the history {@code history}, unless null (its agent's own) or a dead letter already. */
    private Either<DeadLetter, HistoryEvent> named(Either<DeadLetter, HistoryEvent> event, String history) {
        return history == null || event.isLeft() ? event : Either.Right(event.right().inHistory(history));
    }

    /** The op map's {@code history} field, else the {@value HistoryEvent#HISTORY_HEADER} header, else null. */
    private String jsonHistory(ConsumerRecord<byte[], byte[]> record) {
        if (shipped.hasHistory()) {
            if (shipped.history() == null || shipped.history().isEmpty()) {
                throw new Malformed("field \"history\": expected the history's name, a non-empty string, got "
                        + shipped.historyText());
            }
            return shipped.history();
        }
        return header(record, HistoryEvent.HISTORY_HEADER);
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

    /**
     * Whether a JSON record declares the agent protocol: its {@value HistoryEvent#PROTOCOL_HEADER}
     * header names it, on the history's first event. (A binary record carries it in its type byte.)
     */
    private static boolean declaresAgentProtocol(ConsumerRecord<byte[], byte[]> record, long seq) {
        String protocol = header(record, HistoryEvent.PROTOCOL_HEADER);
        if (protocol == null) {
            return false;
        }
        if (!protocol.equals(HistoryEvent.AGENT_PROTOCOL)) {
            throw new Malformed("header \"" + HistoryEvent.PROTOCOL_HEADER + "\": unknown protocol \"" + protocol
                    + "\"; the one known is \"" + HistoryEvent.AGENT_PROTOCOL + "\"");
        }
        if (seq != 0) {
            throw new Malformed("header \"" + HistoryEvent.PROTOCOL_HEADER + "\" on event " + seq
                    + ": only a history's first event (seq 0) declares the agent protocol");
        }
        return true;
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        if (record.headers() == null) {
            return null;
        }
        Header h = record.headers().lastHeader(name);
        String value = h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
        if (value != null && value.isEmpty() && name.equals(HistoryEvent.HISTORY_HEADER)) {
            throw new Malformed("header \"" + name + "\": empty; it names the history the record belongs to");
        }
        return value;
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
