package io.isowatch.ui;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;

/**
 * The static report {@code isowatch check -o DIR} writes as {@code DIR/index.html}: the console's
 * list, finding and history pages in one file that works from {@code file://} with no server.
 *
 * <p>The report holds the same rows and views the server sends (built by {@link ConsoleJson} from
 * {@link FindingView}s), with each cycle's picture inline, and the same overview (a
 * {@link FindingStore} of its findings), so the two cannot show a finding differently.
 */
public final class StaticReport {

    /**
     * What the report says about the history as a whole.
     *
     * @param source      the history file's name
     * @param valid       the verdict: true, false or unknown
     * @param models      the models checked
     * @param not         the weakest models the findings rule out
     * @param alsoNot     the other models they rule out
     * @param stats       what was checked
     * @param findings    findings in the verdict
     * @param generatedAt when the report was written, RFC 3339
     */
    public record Summary(String source, String valid, List<String> models, SortedSet<String> not,
                          SortedSet<String> alsoNot, Stats stats, long findings, String generatedAt) {
        public Summary {
            Objects.requireNonNull(source, "source");
            models = List.copyOf(models);
        }
    }

    /** Transactions checked: all completed, and how they ended. */
    public record Stats(long txns, long ok, long info, long fail) {
    }

    /** One finding of the report and its picture (null when it has none or it was left out). */
    public record Entry(FindingView view, String svg) {
    }

    private StaticReport() {
    }

    /** The report page; {@code entries} in the order the list shows them. */
    public static String html(Summary summary, List<Entry> entries) {
        FindingStore store = new FindingStore(Math.max(1, entries.size()));
        entries.forEach(e -> store.add(e.view()));
        return ConsolePage.report(ConsoleJson.of(g -> {
            g.writeStartObject();
            g.writeFieldName("report");
            summary(g, summary, entries.size());
            g.writeArrayFieldStart("findings");
            for (Entry e : entries) {
                ConsoleJson.view(g, e.view(), e.svg());
            }
            g.writeEndArray();
            g.writeFieldName("overview");
            ConsoleJson.overview(g, store);
            g.writeEndObject();
        }));
    }

    private static void summary(JsonGenerator g, Summary s, int shown) throws IOException {
        g.writeStartObject();
        g.writeStringField("source", s.source());
        g.writeStringField("valid", s.valid());
        ConsoleJson.strings(g, "models", s.models());
        ConsoleJson.strings(g, "not", s.not());
        ConsoleJson.strings(g, "alsoNot", s.alsoNot());
        g.writeObjectFieldStart("stats");
        g.writeNumberField("txns", s.stats().txns());
        g.writeNumberField("ok", s.stats().ok());
        g.writeNumberField("info", s.stats().info());
        g.writeNumberField("fail", s.stats().fail());
        g.writeEndObject();
        g.writeNumberField("findings", s.findings());
        g.writeNumberField("shown", shown);
        g.writeStringField("generatedAt", s.generatedAt());
        g.writeEndObject();
    }
}
