package io.isowatch.explain;

import static io.isowatch.explain.ExplainFixturesTest.ok;
import static io.isowatch.explain.ExplainFixturesTest.step;
import static io.isowatch.explain.ExplainFixturesTest.txn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

class FindingJsonTest {

    private final AtomTable atoms = new AtomTable();

    /** Parses JSON text into maps, lists, longs, doubles, strings, booleans and nulls. */
    static Object parse(String json) {
        try (JsonParser p = new JsonFactory().createParser(json)) {
            p.nextToken();
            Object v = value(p);
            assertNull(p.nextToken(), "trailing content after the JSON value");
            return v;
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + json, e);
        }
    }

    private static Object value(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT: {
                Map<String, Object> m = new LinkedHashMap<>();
                while (p.nextToken() != JsonToken.END_OBJECT) {
                    String name = p.currentName();
                    p.nextToken();
                    m.put(name, value(p));
                }
                return m;
            }
            case START_ARRAY: {
                List<Object> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    l.add(value(p));
                }
                return l;
            }
            case VALUE_NUMBER_INT:
                return p.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_STRING:
                return p.getText();
            case VALUE_TRUE:
                return true;
            case VALUE_FALSE:
                return false;
            case VALUE_NULL:
                return null;
            default:
                throw new AssertionError("unexpected token " + t);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> obj(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> arr(Object o) {
        return (List<Object>) o;
    }

    @Test
    void write_cycle_hasElleCycleAndStepsAndExplanation() {
        ExplainFixturesTest.GSingle g = new ExplainFixturesTest.GSingle();
        Map<String, Object> m = obj(parse(FindingJson.toJson(g.cycle, atoms)));
        assertEquals(List.of("type", "cycle", "steps", "explanation"), new ArrayList<>(m.keySet()));
        assertEquals("G-single-item", m.get("type"));
        List<Object> cycle = arr(m.get("cycle"));
        assertEquals(3, cycle.size());
        assertEquals(cycle.get(0), cycle.get(2));
        Map<String, Object> t1 = obj(cycle.get(0));
        assertEquals(Map.of("index", 3L, "time", 300L, "type", "ok", "process", 0L, "f", "txn",
                "value", List.of(List.of("append", 255L, 8L), List.of("append", 256L, 3L))), t1);
        assertEquals(List.of(List.of("r", 255L, List.of(8L)), List.of("r", 256L, List.of(1L, 2L))),
                obj(cycle.get(1)).get("value"));
        List<Object> steps = arr(m.get("steps"));
        assertEquals(Map.of("type", "wr", "key", 255L, "value", 8L, "a-mop-index", 0L, "b-mop-index", 0L),
                steps.get(0));
        assertEquals(Map.of("type", "rw", "key", 256L, "value", 2L, "value'", 3L, "a-mop-index", 1L,
                "b-mop-index", 1L), steps.get(1));
        assertEquals(FindingText.render(g.cycle, atoms), m.get("explanation"));
    }

    @Test
    void write_processRealtimeAndInitialRw_steps() {
        Txn t1 = ok(1, 12, 0, "r:7: a:1:1");
        Txn t2 = ok(2, 20, 0, "a:7:4 r:1:1");
        Txn t3 = ok(3, 30, 1, "a:9:9");
        Finding.Cycle c = new Finding.Cycle(AnomalyType.G_SINGLE_ITEM_REALTIME, List.of(
                step(t1, t2, new Evidence.ReadWrite(7, true, 0, 4)),
                step(t2, t3, new Evidence.Process(0)),
                step(t3, t1, new Evidence.Realtime(30, 3000, 11, 1090))));
        List<Object> steps = arr(obj(parse(FindingJson.toJson(c, atoms))).get("steps"));
        Map<String, Object> rw = obj(steps.get(0));
        assertTrue(rw.containsKey("value"));
        assertNull(rw.get("value"));
        assertEquals(4L, rw.get("value'"));
        assertEquals(0L, rw.get("a-mop-index"));
        assertEquals(Map.of("type", "process", "process", 0L), steps.get(1));
        Map<String, Object> rt = obj(steps.get(2));
        assertEquals(30L, obj(rt.get("a'")).get("index"));
        Map<String, Object> b = obj(rt.get("b"));
        assertEquals("invoke", b.get("type"));
        assertEquals(11L, b.get("index"));
        List<Object> invokedValue = arr(b.get("value"));
        assertEquals(Arrays.asList("r", 7L, null), invokedValue.get(0));
    }

    @Test
    void write_realtimeBetweenAgents_addsTheAgentsAndTheUncertainty_onlyThere() {
        Txn t1 = ok(1, 12, 0, "a:9:1");
        Txn t2 = ok(2, 20, 1, "r:9:");
        Finding.Cycle c = new Finding.Cycle(AnomalyType.G_SINGLE_ITEM_REALTIME, List.of(
                step(t2, t1, new Evidence.ReadWrite(9, true, 0, 1)),
                step(t1, t2, new Evidence.Realtime(12, 3000, 19, 90_000,
                        new Evidence.Agents("host-a", "host-b", 10_000)))));
        List<Object> steps = arr(obj(parse(FindingJson.toJson(c, atoms))).get("steps"));
        Map<String, Object> rt = obj(steps.get(1));
        assertEquals("host-a", rt.get("a-agent"));
        assertEquals("host-b", rt.get("b-agent"));
        assertEquals(10_000L, rt.get("clock-uncertainty-ns"));
        assertTrue(!obj(steps.get(0)).containsKey("a-agent"));
    }

    @Test
    void write_g1a_hasOpMopWriterElement() {
        Txn writer = txn(1, 3, 300, OpType.FAIL, 0, "a:5:2");
        Txn reader = ok(2, 8, 1, "a:6:1 r:5:1,2");
        Finding f = new Finding.BadRead(AnomalyType.G1A, reader, 1, 2, writer);
        Map<String, Object> m = obj(parse(FindingJson.toJson(f, atoms)));
        assertEquals("G1a", m.get("type"));
        assertEquals(8L, obj(m.get("op")).get("index"));
        assertEquals(List.of("r", 5L, List.of(1L, 2L)), m.get("mop"));
        assertEquals("fail", obj(m.get("writer")).get("type"));
        assertEquals(2L, m.get("element"));
        assertEquals(FindingText.render(f, atoms), m.get("explanation"));
    }

    @Test
    void write_garbageRead_hasNoWriter() {
        Txn reader = ok(2, 8, 1, "r:5:9");
        Map<String, Object> m = obj(parse(FindingJson.toJson(
                new Finding.BadRead(AnomalyType.GARBAGE_READ, reader, 0, 9, null), atoms)));
        assertFalse(m.containsKey("writer"));
        assertEquals(9L, m.get("element"));
    }

    @Test
    void write_internal_writesUnknownPrefixAsEllipsis() {
        Txn t = ok(1, 4, 0, "a:5:3 r:5:1");
        Map<String, Object> m = obj(parse(FindingJson.toJson(new Finding.Internal(t, 1, new long[] {3}, true), atoms)));
        assertEquals(List.of("...", 3L), m.get("expected"));
        assertEquals(List.of("r", 5L, List.of(1L)), m.get("mop"));
    }

    @Test
    void write_perKeyFindings_haveElleFields() {
        Txn aborted = txn(1, 3, 300, OpType.FAIL, 0, "a:5:3");
        Txn t2 = ok(2, 6, 1, "a:5:4 r:5:3,3,4");
        Txn t3 = ok(3, 9, 2, "r:5:3 a:5:5");
        Map<String, Object> dup = obj(parse(FindingJson.toJson(
                new Finding.DuplicateElements(t2, 1, Map.of(3L, 2)), atoms)));
        assertEquals(Map.of("3", 2L), dup.get("duplicates"));
        Map<String, Object> inc = obj(parse(FindingJson.toJson(
                new Finding.IncompatibleOrder(5, new long[] {1, 2}, new long[] {1, 3, 2}), atoms)));
        assertEquals(5L, inc.get("key"));
        assertEquals(List.of(List.of(1L, 2L), List.of(1L, 3L, 2L)), inc.get("values"));
        Map<String, Object> dirty = obj(parse(FindingJson.toJson(
                new Finding.DirtyUpdate(5, new long[] {3, 4}, aborted, t2), atoms)));
        List<Object> txns = arr(dirty.get("txns"));
        assertEquals(3, txns.size());
        assertEquals("...", txns.get(1));
        assertEquals(List.of(3L, 4L), dirty.get("values"));
        Map<String, Object> lost = obj(parse(FindingJson.toJson(
                new Finding.LostUpdate(5, new long[] {3}, List.of(t2, t3)), atoms)));
        assertEquals(List.of(3L), lost.get("value"));
        assertEquals(2, arr(lost.get("txns")).size());
        Map<String, Object> und = obj(parse(FindingJson.toJson(
                new Finding.Undecided(AnomalyType.EMPTY_TRANSACTION_GRAPH, "no edges", List.of()), atoms)));
        assertEquals(List.of("type", "reason", "explanation"), new ArrayList<>(und.keySet()));
        assertEquals("empty-transaction-graph", und.get("type"));
    }

    @Test
    void write_stringAtomsAndRegisters_useJsonStringsAndSingleValues() {
        long k = atoms.ofString("acct");
        Txn w = new Txn(1, 0, -1, new Op(1, -1, OpType.OK, 0,
                List.of(new MicroOp.Write(k, 7))));
        Txn r = new Txn(2, 2, -1, new Op(3, -1, OpType.OK, 1,
                List.of(new MicroOp.Read(k, new long[] {7}))));
        Finding.Cycle c = new Finding.Cycle(AnomalyType.G1C, List.of(
                step(w, r, new Evidence.WriteRead(k, 7)), step(r, w, new Evidence.WriteRead(k, 7))));
        Map<String, Object> m = obj(parse(FindingJson.toJson(c, atoms)));
        Map<String, Object> reader = obj(arr(m.get("cycle")).get(1));
        assertEquals(List.of(List.of("r", "acct", 7L)), reader.get("value"));
        assertFalse(reader.containsKey("time"));
        assertEquals("acct", obj(arr(m.get("steps")).get(0)).get("key"));
    }
    @Test
    void write_registerRwFromNilRead_givesTheReadsMopIndex() {
        // Jepsen writes a register's initial read as [:r k nil]; Elle's explainer points at it
        // with (index-of (:value a) [:r k nil]), so the step names that micro-op, as for [].
        Txn reader = ok(1, 4, 0, "w:8:1 r:7:nil");
        Txn writer = ok(2, 6, 1, "r:8:nil w:7:4");
        Finding.Cycle c = new Finding.Cycle(AnomalyType.G2_ITEM, List.of(
                step(reader, writer, new Evidence.ReadWrite(7, true, 0, 4)),
                step(writer, reader, new Evidence.ReadWrite(8, true, 0, 1))));
        Map<String, Object> rw = obj(arr(obj(parse(FindingJson.toJson(c, atoms))).get("steps")).get(0));
        assertNull(rw.get("value"));
        assertEquals(1L, rw.get("a-mop-index"));
        assertEquals(1L, rw.get("b-mop-index"));
    }
}
