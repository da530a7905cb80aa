package io.isowatch.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.explain.CycleSvg;
import io.isowatch.explain.FindingJson;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryReader;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds a cycle from the JSON {@link FindingJson} wrote for it, so an alert that crossed a
 * file or a topic can be drawn by {@link CycleSvg}, the same picture {@code check -o} draws from
 * the checker's own finding.
 *
 * <p>The JSON holds everything the picture shows: each transaction's completion op and each
 * step's evidence. Keys and values are interned into a fresh {@link AtomTable}; transaction ids
 * are positions in the cycle, which names them T1..Tn in the same order. An invocation is known
 * only where a realtime step names it; the picture never shows the others.
 */
public final class CycleJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private CycleJson() {
    }

    /** The cycle's SVG, or null when {@code findingJson} is no cycle (or not one this reader understands). */
    public static String svg(String findingJson) {
        AtomTable atoms = new AtomTable();
        Finding.Cycle cycle = read(findingJson, atoms);
        return cycle == null ? null : CycleSvg.render(cycle, atoms);
    }

    /** The cycle {@code findingJson} describes, with atoms from {@code atoms}; null when it is no cycle. */
    public static Finding.Cycle read(String findingJson, AtomTable atoms) {
        JsonNode f;
        try {
            f = JSON.readTree(findingJson);
        } catch (JsonProcessingException e) {
            return null;
        }
        AnomalyType type = f == null ? null : AnomalyType.byElleName(f.path("type").asText());
        JsonNode ops = f == null ? null : f.get("cycle");
        JsonNode steps = f == null ? null : f.get("steps");
        if (type == null || ops == null || steps == null || !ops.isArray() || !steps.isArray()
                || steps.size() < 2 || ops.size() != steps.size() + 1) {
            return null;
        }
        try {
            List<Txn> txns = new ArrayList<>();
            for (int i = 0; i < steps.size(); i++) {
                txns.add(new Txn(i, -1, -1, op(ops.get(i), atoms)));
            }
            List<Finding.Step> out = new ArrayList<>();
            for (int i = 0; i < steps.size(); i++) {
                JsonNode s = steps.get(i);
                Txn to = txns.get((i + 1) % txns.size());
                if ("realtime".equals(s.path("type").asText())) {
                    JsonNode b = s.path("b");
                    to = new Txn(to.id(), b.path("index").asLong(-1), b.path("time").asLong(-1), to.completion());
                    txns.set((i + 1) % txns.size(), to);
                }
                out.add(new Finding.Step(txns.get(i), to, evidence(s, txns.get(i), atoms)));
            }
            // A realtime step may have replaced the first transaction after the first step used it.
            Txn first = txns.get(0);
            out.set(0, new Finding.Step(first, out.get(0).to(), out.get(0).evidence()));
            return new Finding.Cycle(type, out);
        } catch (RuntimeException e) {
            // A finding JSON this reader does not understand is shown without a picture.
            return null;
        }
    }

    private static Op op(JsonNode node, AtomTable atoms) {
        byte[] json = node.toString().getBytes(StandardCharsets.UTF_8);
        try (HistoryReader r = HistoryReader.ofJson("finding", json, atoms)) {
            Op op = r.next();
            if (op == null) {
                throw new IllegalArgumentException("no op in " + node);
            }
            return op;
        }
    }

    private static Evidence evidence(JsonNode s, Txn from, AtomTable atoms) {
        String kind = s.path("type").asText();
        switch (kind) {
            case "ww":
                return new Evidence.WriteWrite(atom(s.get("key"), atoms), atom(s.get("value"), atoms),
                        atom(s.get("value'"), atoms));
            case "wr":
                return new Evidence.WriteRead(atom(s.get("key"), atoms), atom(s.get("value"), atoms));
            case "rw": {
                JsonNode v = s.get("value");
                boolean initial = v == null || v.isNull();
                return new Evidence.ReadWrite(atom(s.get("key"), atoms), initial, initial ? 0 : atom(v, atoms),
                        atom(s.get("value'"), atoms));
            }
            case "process":
                return new Evidence.Process(s.path("process").asLong());
            case "realtime": {
                JsonNode a = s.path("a'");
                JsonNode b = s.path("b");
                Evidence.Agents agents = s.has("a-agent") ? new Evidence.Agents(s.path("a-agent").asText(),
                        s.path("b-agent").asText(), s.path("clock-uncertainty-ns").asLong(0)) : null;
                return new Evidence.Realtime(a.path("index").asLong(from.index()), a.path("time").asLong(-1),
                        b.path("index").asLong(-1), b.path("time").asLong(-1), agents);
            }
            default:
                throw new IllegalArgumentException("unknown step type " + kind);
        }
    }

    private static long atom(JsonNode v, AtomTable atoms) {
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("a step names no key or value");
        }
        return v.isTextual() ? atoms.ofString(v.asText()) : AtomTable.ofInteger(v.asLong());
    }
}
