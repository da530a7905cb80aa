package io.isowatch.explain;

import static io.isowatch.explain.FindingJsonTest.arr;
import static io.isowatch.explain.FindingJsonTest.obj;
import static io.isowatch.explain.FindingJsonTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.checker.Validity;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AtomTable;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

class VerdictJsonTest {

    private final AtomTable atoms = new AtomTable();
    private final Verdict.Stats stats = new Verdict.Stats(10, 8, 1, 1, 20, 15);

    @Test
    void write_valid_printsTrueAndEmptyCollections() {
        Verdict v = new Verdict(Validity.TRUE, List.of(), Map.of(), new TreeSet<>(), new TreeSet<>(), stats);
        Map<String, Object> m = obj(parse(VerdictJson.toJson(v, atoms, 1.5)));
        assertEquals(List.of("valid", "anomaly-types", "anomalies", "not", "also-not", "stats"), List.copyOf(m.keySet()));
        assertEquals(true, m.get("valid"));
        assertEquals(List.of(), m.get("anomaly-types"));
        assertEquals(Map.of(), m.get("anomalies"));
        assertEquals(List.of(), m.get("not"));
        assertEquals(List.of(), m.get("also-not"));
        assertEquals(Map.of("txns", 10L, "ok", 8L, "info", 1L, "fail", 1L, "ops", 20L, "edges", 15L, "seconds", 1.5),
                m.get("stats"));
    }

    @Test
    void write_unknown_printsUnknownString() {
        Finding u = new Finding.Undecided(AnomalyType.CYCLE_SEARCH_TIMEOUT, "budget of 5 edges spent", List.of());
        Verdict v = new Verdict(Validity.UNKNOWN, List.of(AnomalyType.CYCLE_SEARCH_TIMEOUT),
                Map.of(AnomalyType.CYCLE_SEARCH_TIMEOUT, List.of(u)), new TreeSet<>(), new TreeSet<>(), stats);
        Map<String, Object> m = obj(parse(VerdictJson.toJson(v, atoms, Double.NaN)));
        assertEquals("unknown", m.get("valid"));
        assertEquals(List.of("cycle-search-timeout"), m.get("anomaly-types"));
        assertNull(obj(m.get("stats")).get("seconds"));
        assertEquals("budget of 5 edges spent",
                obj(arr(obj(m.get("anomalies")).get("cycle-search-timeout")).get(0)).get("reason"));
    }

    @Test
    void write_invalid_listsFindingsByTypeAndModels() {
        ExplainFixturesTest.GSingle g = new ExplainFixturesTest.GSingle();
        Map<AnomalyType, List<Finding>> anomalies = new LinkedHashMap<>();
        anomalies.put(AnomalyType.G_SINGLE_ITEM, List.of(g.cycle));
        Verdict v = new Verdict(Validity.FALSE, List.of(AnomalyType.G_SINGLE_ITEM), anomalies,
                new TreeSet<>(List.of("consistent-view")), new TreeSet<>(List.of("serializable", "snapshot-isolation")),
                stats);
        Map<String, Object> m = obj(parse(VerdictJson.toJson(v, atoms, 0.25)));
        assertEquals(false, m.get("valid"));
        assertEquals(List.of("G-single-item"), m.get("anomaly-types"));
        assertEquals(List.of("consistent-view"), m.get("not"));
        assertEquals(List.of("serializable", "snapshot-isolation"), m.get("also-not"));
        List<Object> cycles = arr(obj(m.get("anomalies")).get("G-single-item"));
        assertEquals(1, cycles.size());
        assertEquals(3, arr(obj(cycles.get(0)).get("cycle")).size());
    }

    @Test
    void verdictText_listsValidityTypesModelsFindingsAndStats() {
        ExplainFixturesTest.GSingle g = new ExplainFixturesTest.GSingle();
        Verdict v = new Verdict(Validity.FALSE, List.of(AnomalyType.G_SINGLE_ITEM),
                Map.of(AnomalyType.G_SINGLE_ITEM, List.of(g.cycle, g.cycle)),
                new TreeSet<>(List.of("consistent-view")), new TreeSet<>(List.of("serializable")), stats);
        String text = VerdictText.render(v, atoms, 1);
        assertTrue(text.startsWith("valid: false\nanomaly types: G-single-item\nnot: consistent-view\n"
                + "also not: serializable\n\nG-single-item: T1 -wr-> T2 -rw-> T1, a cycle of 2 transactions"
                + " (indices 3, 7)\nLet:\n"), text);
        assertTrue(text.contains("a contradiction!\n\n... and 1 more G-single-item\n\n"), text);
        assertTrue(text.endsWith("\nstats: 10 txns (8 ok, 1 info, 1 fail), 20 ops, 15 edges\n"), text);
        Verdict valid = new Verdict(Validity.TRUE, List.of(), Map.of(), new TreeSet<>(), new TreeSet<>(), stats);
        assertEquals("valid: true\n\nstats: 10 txns (8 ok, 1 info, 1 fail), 20 ops, 15 edges\n",
                VerdictText.render(valid, atoms));
    }
}
