package io.isowatch.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.anomaly.Boundary;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.history.AtomTable;
import io.isowatch.sinks.Alert;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One finding as the console shows it: the alert, plus the models its anomaly rules out and the
 * transactions it names.
 *
 * @param alert the alert as the job (or {@code check}) rendered it
 * @param ruledOut the models this finding alone rules out, split as Elle splits them
 * @param txns  the transactions the finding JSON names, in order of first mention, each once
 * @param picture whether the finding is a cycle {@link #svg()} can draw
 */
public record FindingView(Alert alert, Boundary ruledOut, List<TxnRow> txns, boolean picture) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One transaction of a finding.
     *
     * @param index   the completion's index in the history
     * @param process the process that ran it
     * @param type    ok, info or fail
     * @param mops    each micro-op as compact JSON, e.g. {@code ["append","x",1]}
     * @param keys    the keys it touches, as JSON scalars ({@code "x"} for a string key, {@code 3} for an integer)
     */
    public record TxnRow(long index, long process, String type, List<String> mops, List<String> keys) {
        public TxnRow {
            mops = List.copyOf(mops);
            keys = List.copyOf(keys);
        }
    }

    public FindingView {
        Objects.requireNonNull(alert, "alert");
        Objects.requireNonNull(ruledOut, "ruledOut");
        txns = List.copyOf(txns);
    }

    /** The view of {@code alert}: its anomaly's boundary from the core's lattice, its transactions from its JSON. */
    public static FindingView of(Alert alert) {
        return new FindingView(alert, boundary(alert.type()), txns(alert.findingJson()),
                CycleJson.read(alert.findingJson(), new AtomTable()) != null);
    }

    /** The finding's stable id. */
    public String id() {
        return alert.id();
    }

    /** Every model this finding rules out, weakest first by name within each group. */
    public SortedSet<String> ruledOutModels() {
        SortedSet<String> all = new TreeSet<>(ruledOut.not());
        all.addAll(ruledOut.alsoNot());
        return all;
    }

    /** The cycle's picture, drawn now from the finding JSON; null for findings that are no cycle. */
    public String svg() {
        return picture ? CycleJson.svg(alert.findingJson()) : null;
    }

    static Boundary boundary(String type) {
        try {
            return ConsistencyModels.friendlyBoundary(List.of(type));
        } catch (IllegalArgumentException e) {
            // A type this build's lattice does not know (a newer job): it rules out nothing we can name.
            return new Boundary(new TreeSet<>(), new TreeSet<>());
        }
    }

    static List<TxnRow> txns(String findingJson) {
        JsonNode f;
        try {
            f = JSON.readTree(findingJson);
        } catch (JsonProcessingException e) {
            return List.of();
        }
        Map<Long, TxnRow> rows = new LinkedHashMap<>();
        if (f != null) {
            for (String field : List.of("cycle", "op", "writer", "txns")) {
                JsonNode v = f.get(field);
                if (v != null && v.isArray()) {
                    v.forEach(op -> add(rows, op));
                } else if (v != null) {
                    add(rows, v);
                }
            }
        }
        return new ArrayList<>(rows.values());
    }

    private static void add(Map<Long, TxnRow> rows, JsonNode op) {
        if (!op.isObject() || !op.path("value").isArray() || !op.has("index")) {
            return;
        }
        List<String> mops = new ArrayList<>();
        Set<String> keys = new LinkedHashSet<>();
        for (JsonNode m : op.get("value")) {
            mops.add(m.toString());
            if (m.isArray() && m.size() > 1) {
                keys.add(m.get(1).toString());
            }
        }
        rows.putIfAbsent(op.get("index").asLong(), new TxnRow(op.get("index").asLong(), op.path("process").asLong(-1),
                op.path("type").asText(""), mops, new ArrayList<>(keys)));
    }
}
