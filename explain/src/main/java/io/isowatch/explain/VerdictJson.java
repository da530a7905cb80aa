package io.isowatch.explain;

import com.fasterxml.jackson.core.JsonGenerator;
import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.checker.Validity;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AtomTable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * A verdict as one JSON object shaped like Elle's result map:
 * {@code {"valid": true|false|"unknown", "anomaly-types":[..], "anomalies":{type:[finding..]},
 * "not":[..], "also-not":[..], "stats":{"txns","ok","info","fail","ops","edges","seconds"}}}.
 *
 * <p>Elle prints {@code :valid?} as {@code true}, {@code false} or {@code :unknown}; here the first
 * two are JSON booleans and the third the string {@code "unknown"}. Unlike Elle, which answers a
 * clean history with {@code {:valid? true}} alone, every field is always present: a valid verdict
 * has empty {@code anomaly-types}, {@code anomalies}, {@code not} and {@code also-not}, so
 * consumers need no special case. Findings are written by {@link FindingJson}.
 */
public final class VerdictJson {

    private VerdictJson() {
    }

    /**
     * Writes the verdict as one JSON object.
     *
     * @param seconds how long the check took, written as {@code stats.seconds}; null in the JSON
     *                when not finite (the core has no clock, so the caller measures it)
     */
    public static void write(JsonGenerator g, Verdict v, AtomTable atoms, double seconds) throws IOException {
        g.writeStartObject();
        writeFields(g, v, atoms, seconds);
        g.writeEndObject();
    }

    /**
     * Writes the verdict's fields into the object {@code g} is writing, so that a caller can put
     * its own fields first and stream the whole to its output: a verdict about long reads can be
     * tens of megabytes, each finding holding its op whole.
     */
    public static void writeFields(JsonGenerator g, Verdict v, AtomTable atoms, double seconds) throws IOException {
        writeFields(g, v, atoms, seconds, null);
    }

    /** As {@link #writeFields(JsonGenerator, Verdict, AtomTable, double)}, in the workload's notation (null: guessed per finding). */
    public static void writeFields(JsonGenerator g, Verdict v, AtomTable atoms, double seconds, Notation n)
            throws IOException {
        g.writeFieldName("valid");
        if (v.valid() == Validity.UNKNOWN) {
            g.writeString("unknown");
        } else {
            g.writeBoolean(v.valid() == Validity.TRUE);
        }
        List<AnomalyType> types = types(v);
        g.writeArrayFieldStart("anomaly-types");
        for (AnomalyType t : v.anomalyTypes()) {
            g.writeString(t.elleName());
        }
        g.writeEndArray();
        g.writeObjectFieldStart("anomalies");
        for (AnomalyType t : types) {
            g.writeArrayFieldStart(t.elleName());
            for (Finding f : v.anomalies().get(t)) {
                FindingJson.write(g, f, atoms, n == null ? Notation.of(f) : n);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
        strings(g, "not", v.not());
        strings(g, "also-not", v.alsoNot());
        Verdict.Stats s = v.stats();
        g.writeObjectFieldStart("stats");
        g.writeNumberField("txns", s.txns());
        g.writeNumberField("ok", s.ok());
        g.writeNumberField("info", s.info());
        g.writeNumberField("fail", s.fail());
        g.writeNumberField("ops", s.ops());
        g.writeNumberField("edges", s.edges());
        g.writeFieldName("seconds");
        if (Double.isFinite(seconds)) {
            g.writeNumber(seconds);
        } else {
            g.writeNull();
        }
        g.writeEndObject();
    }

    /** The verdict as a JSON string; builds a fresh {@code JsonFactory}. */
    public static String toJson(Verdict v, AtomTable atoms, double seconds) {
        return JsonParts.toJson(g -> write(g, v, atoms, seconds));
    }

    /**
     * The types to list findings for: those of {@code anomalyTypes} first, in its order, then any
     * other type with findings, by name.
     */
    static List<AnomalyType> types(Verdict v) {
        List<AnomalyType> out = new ArrayList<>();
        for (AnomalyType t : v.anomalyTypes()) {
            if (v.anomalies().containsKey(t) && !out.contains(t)) {
                out.add(t);
            }
        }
        v.anomalies().keySet().stream()
                .filter(t -> !out.contains(t))
                .sorted(Comparator.comparing(AnomalyType::elleName))
                .forEach(out::add);
        return out;
    }

    private static void strings(JsonGenerator g, String field, Collection<String> values) throws IOException {
        g.writeArrayFieldStart(field);
        for (String s : values) {
            g.writeString(s);
        }
        g.writeEndArray();
    }
}
