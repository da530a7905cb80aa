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
 *
 * <p>The field names are {@link Fields}: the writer here and every reader (the findings
 * console's {@code AlertLine}) use them, so the two cannot drift apart.
 */
public final class AlertJson {

    /** Bumps when a field is renamed or removed; adding fields keeps it. */
    public static final int VERSION = 1;

    /** The alert object's field names, for its writer and its readers alike. */
    public static final class Fields {
        public static final String ID = "id";
        public static final String HISTORY = "history";
        public static final String TYPE = "type";
        public static final String TITLE = "title";
        public static final String MODELS = "models";
        public static final String DETECTED_AT = "detected-at";
        public static final String DETECTED_AT_MS = "detected-at-ms";
        public static final String DETECTION_DELAY_MS = "detection-delay-ms";
        public static final String RELEASED = "released";
        public static final String RELEASED_REASON = "released-reason";
        /** In a history several agents record: the agents whose transactions the finding names. */
        public static final String AGENTS = "agents";
        public static final String VERSION = "version";
        public static final String LINK = "link";
        /** FindingJson's object; its own {@code "explanation"} field holds the text. */
        public static final String FINDING = "finding";
        /** The finding's explanation, inside {@link #FINDING} (written by FindingJson). */
        public static final String FINDING_EXPLANATION = "explanation";
        /** What the finding is in plain words: an object of the five fields below. */
        public static final String IN_PLAIN_WORDS = "in-plain-words";
        public static final String PLAIN_NAME = "name";
        public static final String PLAIN_ALLOWED_BY = "allowed-by";
        public static final String PLAIN_FORBIDDEN_BY = "forbidden-by";
        public static final String PLAIN_BREAKS = "breaks";
        public static final String PLAIN_SENTENCE = "sentence";

        private Fields() {
        }
    }

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
        g.writeStringField(Fields.ID, alert.id());
        if (!alert.history().isEmpty()) {
            g.writeStringField(Fields.HISTORY, alert.history());
        }
        if (!alert.agents().isEmpty()) {
            stringArray(g, Fields.AGENTS, alert.agents());
        }
        g.writeStringField(Fields.TYPE, alert.type());
        g.writeStringField(Fields.TITLE, alert.title());
        g.writeArrayFieldStart(Fields.MODELS);
        for (String m : alert.models()) {
            g.writeString(m);
        }
        g.writeEndArray();
        g.writeStringField(Fields.DETECTED_AT, rfc3339(alert.detectedAtMillis()));
        g.writeNumberField(Fields.DETECTED_AT_MS, alert.detectedAtMillis());
        if (alert.hasDetectionDelay()) {
            g.writeNumberField(Fields.DETECTION_DELAY_MS, alert.detectionDelayMillis());
        } else {
            g.writeNullField(Fields.DETECTION_DELAY_MS);
        }
        g.writeStringField(Fields.RELEASED, alert.release().name());
        if (alert.releasedAtEnd()) {
            g.writeStringField(Fields.RELEASED_REASON, alert.release().reason());
        }
        PlainWords.Summary plain = PlainWords.of(alert.type(), alert.models());
        if (plain != null) {
            g.writeObjectFieldStart(Fields.IN_PLAIN_WORDS);
            g.writeStringField(Fields.PLAIN_NAME, plain.name());
            stringArray(g, Fields.PLAIN_ALLOWED_BY, plain.allowedBy());
            stringArray(g, Fields.PLAIN_FORBIDDEN_BY, plain.forbiddenBy());
            stringArray(g, Fields.PLAIN_BREAKS, plain.breaks());
            g.writeStringField(Fields.PLAIN_SENTENCE, plain.sentence());
            g.writeEndObject();
        }
        g.writeNumberField(Fields.VERSION, VERSION);
        if (console != null) {
            g.writeStringField(Fields.LINK, console.finding(alert.id()));
        }
        g.writeFieldName(Fields.FINDING);
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
