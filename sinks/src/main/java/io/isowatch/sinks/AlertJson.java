package io.isowatch.sinks;

import io.isowatch.explain.PlainWords;
import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;

/**
 * An alert as one JSON object, the record of the alerts topic and the line of the alerts file:
 * <pre>
 * {"id": "3f2a…",                  the finding's stable id: de-duplicate by it
 *  "history": "agent-1",           the recording agent; absent for a single history
 *  "type": "G2-item",              the anomaly
 *  "title": "G2-item: T1 -rw-> …", one line
 *  "models": ["serializable"],     the models checked
 *  "detected-at": "2025-01-02T03:04:05.678Z", RFC 3339, UTC
 *  "detected-at-ms": 1735787045678,
 *  "detection-delay-ms": 12,       null when unknown
 *  "released": "live",             or "end-of-history": released only when the history ended
 *                                  (settle time, decision 0009); its delay then includes that wait
 *  "released-reason": "reads a …",  why it waited for the end; only with "end-of-history"
 *  "version": 1,                   of this shape ({@link #VERSION})
 *  "link": "http://…/findings/3f2a…", the finding's page in the console; only when one is configured
 *  "finding": {...}}               FindingJson's object, holding "explanation"
 * </pre>
 * Written compactly on one line, in UTF-8. A reader meeting no {@code "released"} (an alert
 * written before the field) reads it as live, which every such alert was.
 */
public final class AlertJson {

    /** Bumps when a field is renamed or removed; adding fields keeps it. */
    public static final int VERSION = 1;

    /**
     * The alerts topic's name unless configured otherwise: the job's {@code alerts-topic} default
     * and the console's {@code --alerts-topic} default, defined once here, where both can see it.
     */
    public static final String DEFAULT_TOPIC = "isowatch.alerts";

    private static final JsonFactory FACTORY = new JsonFactory();

    private AlertJson() {
    }

    /** Writes the alert as one JSON object, without a link. */
    public static void write(JsonGenerator g, Alert alert) throws IOException {
        write(g, alert, null);
    }

    /** Writes the alert as one JSON object, with a {@code link} to its page when {@code console} is not null. */
    public static void write(JsonGenerator g, Alert alert, ConsoleLink console) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", alert.id());
        if (!alert.history().isEmpty()) {
            g.writeStringField("history", alert.history());
        }
        g.writeStringField("type", alert.type());
        g.writeStringField("title", alert.title());
        g.writeArrayFieldStart("models");
        for (String m : alert.models()) {
            g.writeString(m);
        }
        g.writeEndArray();
        g.writeStringField("detected-at", rfc3339(alert.detectedAtMillis()));
        g.writeNumberField("detected-at-ms", alert.detectedAtMillis());
        if (alert.hasDetectionDelay()) {
            g.writeNumberField("detection-delay-ms", alert.detectionDelayMillis());
        } else {
            g.writeNullField("detection-delay-ms");
        }
        g.writeStringField("released", alert.release().name());
        if (alert.releasedAtEnd()) {
            g.writeStringField("released-reason", alert.release().reason());
        }
        PlainWords.Summary plain = PlainWords.of(alert.type(), alert.models());
        if (plain != null) {
            g.writeObjectFieldStart("in-plain-words");
            g.writeStringField("name", plain.name());
            stringArray(g, "allowed-by", plain.allowedBy());
            stringArray(g, "forbidden-by", plain.forbiddenBy());
            stringArray(g, "breaks", plain.breaks());
            g.writeStringField("sentence", plain.sentence());
            g.writeEndObject();
        }
        g.writeNumberField("version", VERSION);
        if (console != null) {
            g.writeStringField("link", console.finding(alert.id()));
        }
        g.writeFieldName("finding");
        g.writeRawValue(alert.findingJson());
        g.writeEndObject();
    }

    private static void stringArray(JsonGenerator g, String field, java.util.List<String> values) throws IOException {
        g.writeArrayFieldStart(field);
        for (String v : values) {
            g.writeString(v);
        }
        g.writeEndArray();
    }

    /** The alert as compact UTF-8 JSON, without a line break. */
    public static byte[] toBytes(Alert alert) {
        return toBytes(alert, null);
    }

    /** The alert as compact UTF-8 JSON, without a line break; with a link to its page when {@code console} is not null. */
    public static byte[] toBytes(Alert alert, ConsoleLink console) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            write(g, alert, console);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write alert " + alert.id() + " as JSON", e);
        }
        return out.toByteArray();
    }

    /** An epoch-millisecond instant in RFC 3339, UTC, e.g. {@code 2025-01-02T03:04:05.678Z} (the fraction only when not zero). */
    public static String rfc3339(long epochMillis) {
        return DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochMilli(epochMillis));
    }
}
