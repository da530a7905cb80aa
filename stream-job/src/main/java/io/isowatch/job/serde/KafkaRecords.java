package io.isowatch.job.serde;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.isowatch.job.DeadLetter;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertJson;
import io.isowatch.sinks.ConsoleLink;

import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** How the job's outputs are written to Kafka. */
public final class KafkaRecords {

    private static final JsonFactory JSON = new JsonFactory();

    private KafkaRecords() {
    }

    /** Alerts: key = the finding's stable id (consumers and compaction de-duplicate by it), value = {@link AlertJson}. */
    public static KafkaRecordSerializationSchema<Alert> alerts(String topic) {
        return alerts(topic, null);
    }

    /** As {@link #alerts(String)}, each value with a {@code link} to its finding's page when {@code console} is not null. */
    public static KafkaRecordSerializationSchema<Alert> alerts(String topic, ConsoleLink console) {
        return (KafkaRecordSerializationSchema<Alert>) (alert, context, timestamp) -> new ProducerRecord<>(topic,
                alert.id().getBytes(StandardCharsets.UTF_8), AlertJson.toBytes(alert, console));
    }

    /** Dead letters: no key, value = {@link #deadLetterJson}. */
    public static KafkaRecordSerializationSchema<DeadLetter> deadLetters(String topic) {
        return (KafkaRecordSerializationSchema<DeadLetter>) (d, context, timestamp) ->
                new ProducerRecord<>(topic, null, deadLetterJson(d));
    }

    /**
     * A dead letter as one JSON object: {@code kind} (e.g. {@code MALFORMED_RECORD}),
     * {@code error}, {@code raw}, and {@code topic}/{@code partition}/{@code offset} of its
     * Kafka record when it came from one.
     */
    public static byte[] deadLetterJson(DeadLetter d) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + d.raw().length());
        try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("kind", d.kind().name());
            g.writeStringField("error", d.error());
            g.writeStringField("raw", d.raw());
            if (!d.topic().isEmpty()) {
                g.writeStringField("topic", d.topic());
                g.writeNumberField("partition", d.partition());
                g.writeNumberField("offset", d.offset());
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a dead letter as JSON", e);
        }
        return out.toByteArray();
    }
}
