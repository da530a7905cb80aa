package io.isowatch.ui;

import io.isowatch.explain.PlainWords;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertJson;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The JSON the console's script reads: finding rows and views, the overview of histories, and
 * the static report's data.
 *
 * <p>Every string is written with {@code <}, {@code >}, {@code &}, {@code '} and U+2028/U+2029
 * as {@code \\uXXXX} escapes, so the output can sit inside an HTML {@code <script>} element
 * (no {@code </script>} or {@code <!--} can appear in it) and in a Server-Sent Events line; what
 * the script parses is unchanged. The alert's own JSON travels as a string field,
 * {@code alertJson}, escaped the same way, never spliced in raw.
 *
 * <p>A row (the list's line): {@code {"id","history","type","title","models":[checked],
 * "detectedAtMs","detectedAt","delayMs"|null,"released":"live"|"end-of-history","releasedReason",
 * "not":[..],"alsoNot":[..],"picture":bool,"agents":[..]}}; {@code releasedReason} is empty for a
 * live finding, {@code agents} for a history one agent records.
 * A view (the finding's page) adds {@code "explanation","txns":[{"index","process","type",
 * "mops":[json..],"keys":[json..]}],"alertJson"} and, when drawn, {@code "svg"}.
 */
public final class ConsoleJson {

    private static final JsonFactory FACTORY = new JsonFactory().setCharacterEscapes(new ScriptSafe());
    /** Every model of Elle's lattice by the name verdicts use, for the history page's picture of them. */
    private static final SortedSet<String> FRIENDLY_MODELS = friendlyModels();

    /** Something that writes JSON. */
    public interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private ConsoleJson() {
    }

    /** Runs {@code body} on a script-safe generator and returns the text (one line). */
    public static String of(Body body) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException("writing console JSON failed", e);
        }
        return out.toString();
    }

    /** A row as one JSON line. */
    public static String row(FindingView v) {
        return of(g -> {
            g.writeStartObject();
            rowFields(g, v);
            g.writeEndObject();
        });
    }

    /** Rows, in the order given. */
    public static String rows(List<FindingView> views) {
        return of(g -> {
            g.writeStartArray();
            for (FindingView v : views) {
                g.writeStartObject();
                rowFields(g, v);
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    /** A view as one JSON line; {@code svg} (the picture) is included when not null. */
    public static String view(FindingView v, String svg) {
        return of(g -> view(g, v, svg));
    }

    /** Writes a view; {@code svg} (the picture) is included when not null. */
    public static void view(JsonGenerator g, FindingView v, String svg) throws IOException {
        Alert a = v.alert();
        g.writeStartObject();
        rowFields(g, v);
        g.writeStringField("explanation", a.explanation());
        PlainWords.Summary plain = PlainWords.of(a.type(), a.models());
        if (plain != null) {
            g.writeObjectFieldStart("plain");
            g.writeStringField("name", plain.name());
            strings(g, "allowedBy", plain.allowedBy());
            strings(g, "forbiddenBy", plain.forbiddenBy());
            strings(g, "breaks", plain.breaks());
            g.writeStringField("verdict", plain.verdict());
            g.writeEndObject();
        }
        g.writeArrayFieldStart("txns");
        for (FindingView.TxnRow t : v.txns()) {
            g.writeStartObject();
            g.writeNumberField("index", t.index());
            g.writeNumberField("process", t.process());
            g.writeStringField("type", t.type());
            strings(g, "mops", t.mops());
            strings(g, "keys", t.keys());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeStringField("alertJson", new String(AlertJson.toBytes(a), StandardCharsets.UTF_8));
        if (svg != null) {
            g.writeStringField("svg", svg);
        }
        g.writeEndObject();
    }

    private static void rowFields(JsonGenerator g, FindingView v) throws IOException {
        Alert a = v.alert();
        g.writeStringField("id", a.id());
        g.writeStringField("history", a.history());
        g.writeStringField("type", a.type());
        g.writeStringField("title", a.title());
        strings(g, "models", a.models());
        g.writeNumberField("detectedAtMs", a.detectedAtMillis());
        g.writeStringField("detectedAt", AlertJson.rfc3339(a.detectedAtMillis()));
        if (a.hasDetectionDelay()) {
            g.writeNumberField("delayMs", a.detectionDelayMillis());
        } else {
            g.writeNullField("delayMs");
        }
        g.writeStringField("released", a.release().name());
        g.writeStringField("releasedReason", a.release().reason());
        strings(g, "not", v.ruledOut().not());
        strings(g, "alsoNot", v.ruledOut().alsoNot());
        g.writeBooleanField("picture", v.picture());
        strings(g, "agents", a.agents());
    }

    /**
     * The console's overview: counts per type, repeats dropped, unreadable records skipped,
     * findings held and the most held, every model name of Elle's lattice, and one summary per history.
     */
    public static String overview(FindingStore store) {
        return of(g -> overview(g, store));
    }

    /** Writes the overview of {@link #overview(FindingStore)}. */
    public static void overview(JsonGenerator g, FindingStore store) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("counts");
        for (Map.Entry<String, Long> e : store.countsByType().entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
        g.writeNumberField("repeats", store.repeats());
        g.writeNumberField("unreadable", store.unreadable());
        g.writeNumberField("held", store.size());
        g.writeNumberField("capacity", store.capacity());
        strings(g, "models", FRIENDLY_MODELS);
        g.writeArrayFieldStart("histories");
        for (FindingStore.HistorySummary h : store.histories()) {
            summary(g, h);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void summary(JsonGenerator g, FindingStore.HistorySummary h) throws IOException {
        g.writeStartObject();
        g.writeStringField("history", h.history());
        g.writeNumberField("findings", h.findings());
        g.writeObjectFieldStart("types");
        for (Map.Entry<String, Long> e : h.types().entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
        strings(g, "not", h.ruledOut().not());
        strings(g, "alsoNot", h.ruledOut().alsoNot());
        g.writeObjectFieldStart("ruledOutBy");
        for (Map.Entry<String, List<String>> e : h.ruledOutBy().entrySet()) {
            strings(g, e.getKey(), e.getValue());
        }
        g.writeEndObject();
        g.writeNumberField("firstDetectedAtMs", h.firstDetectedAtMillis());
        g.writeNumberField("lastDetectedAtMs", h.lastDetectedAtMillis());
        strings(g, "agents", h.agents());
        g.writeEndObject();
    }

    private static SortedSet<String> friendlyModels() {
        SortedSet<String> out = new TreeSet<>();
        for (String m : ConsistencyModels.modelNames()) {
            out.add(ConsistencyModels.friendlyModel(m));
        }
        return Collections.unmodifiableSortedSet(out);
    }

    static void strings(JsonGenerator g, String field, Collection<String> values) throws IOException {
        g.writeArrayFieldStart(field);
        for (String s : values) {
            g.writeString(s);
        }
        g.writeEndArray();
    }

    /** Escapes the characters that could end a script element or a line early. */
    private static final class ScriptSafe extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] ascii = standardAsciiEscapesForJSON();
        private final SerializableString ls = new SerializedString("\\u2028");
        private final SerializableString ps = new SerializedString("\\u2029");

        ScriptSafe() {
            for (char c : new char[] {'<', '>', '&', '\''}) {
                ascii[c] = ESCAPE_STANDARD;
            }
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return ch == 0x2028 ? ls : ch == 0x2029 ? ps : null;
        }
    }
}
