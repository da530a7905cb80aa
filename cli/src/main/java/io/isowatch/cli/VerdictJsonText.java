package io.isowatch.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A verdict given as {@code VerdictJson} (what the stream job emits at the end of a bounded
 * input), rendered as the text {@code VerdictText} gives for the verdict itself, so that
 * {@code replay} prints what {@code check} prints.
 *
 * <p>The JSON carries every part of the text except the findings' one-line titles. Those come
 * from {@code titles} (the job's alerts, keyed by {@link #titleKey}) when the finding was
 * alerted, and are otherwise rebuilt from the finding's JSON for the kinds only the end of input
 * reports (cycles re-explained at the end, lost updates, cycle-exists, undecided); a title that
 * cannot be rebuilt falls back to the type name.
 */
final class VerdictJsonText {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String NULL_SECONDS = "\"seconds\":null}}";

    private final JsonNode root;
    private final Function<String, String> titles;

    private VerdictJsonText(JsonNode root, Function<String, String> titles) {
        this.root = root;
        this.titles = titles;
    }

    static VerdictJsonText parse(String json, Function<String, String> titles) {
        try {
            return new VerdictJsonText(MAPPER.readTree(json), titles);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the job's verdict is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The lookup key of a finding's title: its type and explanation. */
    static String titleKey(String type, String explanation) {
        return type + '\u0000' + explanation;
    }

    /** The verdict JSON with {@code stats.seconds} (written as null by the job) set. */
    static String withSeconds(String verdictJson, double seconds) {
        if (!verdictJson.endsWith(NULL_SECONDS) || !Double.isFinite(seconds)) {
            return verdictJson;
        }
        // Jackson writes a double as Double.toString does, as check's VerdictJson would.
        return verdictJson.substring(0, verdictJson.length() - NULL_SECONDS.length()) + "\"seconds\":"
                + seconds + "}}";
    }

    /** true, false or unknown. */
    String validName() {
        return root.get("valid").asText();
    }

    long txns() {
        return root.path("stats").path("txns").asLong();
    }

    long ops() {
        return root.path("stats").path("ops").asLong();
    }

    /** As {@code VerdictText.render(verdict, atoms, perType)}. */
    String render(int perType) {
        StringBuilder sb = new StringBuilder("valid: ").append(validName()).append('\n');
        line(sb, "anomaly types: ", strings(root.get("anomaly-types")));
        line(sb, "not: ", strings(root.get("not")));
        line(sb, "also not: ", strings(root.get("also-not")));
        Iterator<Map.Entry<String, JsonNode>> types = root.path("anomalies").fields();
        while (types.hasNext()) {
            Map.Entry<String, JsonNode> t = types.next();
            JsonNode fs = t.getValue();
            int shown = Math.min(perType, fs.size());
            for (int i = 0; i < shown; i++) {
                JsonNode f = fs.get(i);
                sb.append('\n').append(title(t.getKey(), f)).append('\n')
                        .append(f.path("explanation").asText()).append('\n');
            }
            if (shown < fs.size()) {
                sb.append("\n... and ").append(fs.size() - shown).append(" more ").append(t.getKey()).append('\n');
            }
        }
        JsonNode s = root.path("stats");
        return sb.append('\n').append("stats: ").append(s.path("txns").asLong()).append(" txns (")
                .append(s.path("ok").asLong()).append(" ok, ").append(s.path("info").asLong()).append(" info, ")
                .append(s.path("fail").asLong()).append(" fail), ").append(s.path("ops").asLong()).append(" ops, ")
                .append(s.path("edges").asLong()).append(" edges\n").toString();
    }

    private String title(String type, JsonNode f) {
        String known = titles.apply(titleKey(type, f.path("explanation").asText()));
        return known != null ? known : rebuildTitle(type, f);
    }

    /** {@code FindingText.title}, rebuilt from a finding's JSON ({@code FindingJson}). */
    static String rebuildTitle(String type, JsonNode f) {
        if (f.has("steps") && f.path("cycle").path(0).isObject()) {
            return cycleTitle(type, f);
        }
        if (f.has("reason")) {
            return type + ": " + f.get("reason").asText();
        }
        List<JsonNode> ops = new ArrayList<>();
        String what;
        if (f.has("element") && f.has("op")) {
            if (f.has("writer")) {
                ops.add(f.get("writer"));
            }
            ops.add(f.get("op"));
            what = badRead(type, f.has("writer"), register(ops));
        } else if (f.has("expected") && f.has("op")) {
            ops.add(f.get("op"));
            what = "T1 read a key inconsistently with its own earlier steps";
        } else if (f.has("duplicates") && f.has("op")) {
            ops.add(f.get("op"));
            int n = f.get("duplicates").size();
            what = "T1 read " + n + (n == 1 ? " element" : " elements") + " more than once";
        } else if (f.has("scc") && f.has("subgraph")) {
            List<Long> scc = new ArrayList<>();
            f.get("scc").forEach(i -> scc.add(i.asLong()));
            return type + ": a cycle of " + f.get("subgraph").asText() + " edges among " + f.path("scc-size").asLong()
                    + " transactions" + indices(scc);
        } else if (f.has("source") && f.has("cycle")) {
            what = f.get("source").asText() + " would order the versions of one key in a cycle of "
                    + f.get("cycle").size();
        } else if (f.has("txns") && f.has("values")) {
            f.get("txns").forEach(op -> {
                if (op.isObject()) {
                    ops.add(op);
                }
            });
            what = "committed T2 wrote after aborted T1";
        } else if (f.has("values")) {
            what = "two reads of one key (" + f.get("values").path(0).size() + " and " + f.get("values").path(1).size()
                    + " elements) disagree on the order of its appends";
        } else if (f.has("txns")) {
            f.get("txns").forEach(ops::add);
            what = ops.size() + " transactions read the same version of one key and all wrote it";
        } else {
            return type;
        }
        List<Long> idx = new ArrayList<>();
        for (JsonNode op : ops) {
            long i = op.path("index").asLong();
            if (!idx.contains(i)) {
                idx.add(i);
            }
        }
        return type + ": " + what + indices(idx);
    }

    private static String badRead(String type, boolean hasWriter, boolean reg) {
        String reader = hasWriter ? "T2" : "T1";
        String writer = hasWriter ? "T1" : "another transaction";
        String thing = reg ? "a value" : "an element";
        return switch (type) {
            case "G1a" -> reader + " read " + thing + (reg ? " written by " : " appended by ") + writer + ", which aborted";
            case "G1b" -> reader + " read an intermediate " + (reg ? "value written by " : "element appended by ") + writer;
            case "future-read" -> reader + " read " + thing + (reg ? " it writes" : " it appends") + " only later";
            case "garbage-read" -> reader + " read " + thing + (reg ? " no transaction wrote" : " no transaction appended");
            default -> reader + " read " + thing;
        };
    }

    /** {@code Notation.of}: rw-register when the ops write and none appends. */
    private static boolean register(List<JsonNode> ops) {
        boolean writes = false;
        for (JsonNode op : ops) {
            for (JsonNode mop : op.path("value")) {
                String f = mop.path(0).asText();
                if ("append".equals(f)) {
                    return false;
                }
                writes |= "w".equals(f);
            }
        }
        return writes;
    }

    /**
     * A cycle's ops are its steps' sources, in order, then the first again; the transactions are
     * named T1.. in that order (Elle's binding), told apart by their completion index.
     */
    private static String cycleTitle(String type, JsonNode f) {
        JsonNode cycle = f.get("cycle");
        JsonNode steps = f.get("steps");
        Map<Long, String> names = new LinkedHashMap<>();
        for (JsonNode op : cycle) {
            names.computeIfAbsent(op.path("index").asLong(), k -> "T" + (names.size() + 1));
        }
        StringBuilder sb = new StringBuilder(type).append(": ").append(names.get(cycle.get(0).path("index").asLong()));
        for (int i = 0; i < steps.size(); i++) {
            sb.append(" -").append(steps.get(i).path("type").asText()).append("-> ")
                    .append(names.get(cycle.get(i + 1).path("index").asLong()));
        }
        return sb.append(", a cycle of ").append(names.size()).append(" transactions")
                .append(indices(new ArrayList<>(names.keySet()))).toString();
    }

    private static String indices(List<Long> indices) {
        if (indices.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(indices.size() == 1 ? " (index " : " (indices ");
        for (int i = 0; i < indices.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(indices.get(i));
        }
        return sb.append(')').toString();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    private static void line(StringBuilder sb, String label, List<String> values) {
        if (!values.isEmpty()) {
            sb.append(label).append(String.join(", ", values)).append('\n');
        }
    }
}
