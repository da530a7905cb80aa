package io.isowatch.job.serde;

import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.explain.VerdictJson;
import io.isowatch.explain.VerdictText;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.history.codec.BinaryEventCodec;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.Events;
import io.isowatch.job.HistoryVerdict;
import io.isowatch.job.operators.ProcessProgress;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.Release;
import io.isowatch.anomaly.AnomalyType;
import io.isowatch.testing.Golden;

import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.types.StringValue;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SerializersTest {

    private static HistoryEvent withStrings() {
        AtomTable atoms = new AtomTable();
        long key = atoms.ofString("account-7");
        long value = atoms.ofString("ünïcode ✓");
        return HistoryEvent.carrying("agent-ß", 42, new Op(9, 123_456_789L, OpType.OK, 3,
                List.of(new MicroOp.Write(key, value), new MicroOp.Read(key, new long[] {value, 5}),
                        new MicroOp.Append(-17, Long.MAX_VALUE))), atoms);
    }

    @Test
    void historyEvent_writeRestoreCompare() throws Exception {
        SerializerRoundTrip.check(new HistoryEventSerializer(), List.of(
                Events.invoke("a1", 0, 1, 10),
                Events.ok("a1", 1, 1, 11),
                new HistoryEvent("a2", 7, new Op(3, -1, OpType.INFO, 0, List.of())),
                withStrings()));
    }

    /** The operator keys events by their history, so the name must survive the network and a restore. */
    @Test
    void historyEvent_namingItsHistory_keepsTheName_withAndWithoutAKeptEncoding() throws Exception {
        HistoryEvent made = Events.ok("shop-1", 1, 1_000_000_001L, 11).inHistory("shop");
        HistoryEvent decoded = new BinaryEventCodec(new AtomTable()).decodeKeeping(
                new BinaryEventCodec(new AtomTable()).encode(made)).inHistory("shop");
        SerializerRoundTrip.check(new HistoryEventSerializer(), List.of(made, decoded, withStrings().inHistory("ß")),
                e -> e.history() + "/" + e.namesHistory() + "/" + e);
        HistoryEventSerializer serializer = new HistoryEventSerializer();
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(decoded, out);
        HistoryEvent read = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertEquals("shop", read.history());
        assertEquals("shop-1", read.source());
        assertArrayEquals(decoded.encoding(), read.encoding(), "the encoding is kept beside the name");
    }

    @Test
    void historyEvent_keptEncoding_isWrittenAsItCame_andTheReadEventKeepsItsOwn() throws Exception {
        HistoryEvent made = Events.ok("a1", 1, 1, 11);
        byte[] encoded = new BinaryEventCodec(new AtomTable()).encode(made);
        HistoryEvent decoded = new BinaryEventCodec(new AtomTable()).decodeKeeping(encoded);
        HistoryEventSerializer serializer = new HistoryEventSerializer();
        DataOutputSerializer fromMemory = new DataOutputSerializer(64);
        serializer.serialize(made, fromMemory);
        DataOutputSerializer fromBytes = new DataOutputSerializer(64);
        serializer.serialize(decoded, fromBytes);
        assertArrayEquals(fromMemory.getCopyOfBuffer(), fromBytes.getCopyOfBuffer(), "the same bytes either way");
        HistoryEvent read = serializer.deserialize(new DataInputDeserializer(fromBytes.getCopyOfBuffer()));
        assertEquals(made, read);
        assertArrayEquals(encoded, read.encoding(), "the event read keeps what it was read from");
    }

    /** Compared as check prints them: the text and JSON of each verdict. */
    @Test
    void historyVerdict_writeRestoreCompare() throws Exception {
        List<HistoryVerdict> verdicts = new ArrayList<>();
        for (String name : List.of("G2-item-write-skew", "G1a-aborted-read", "duplicate-elements-repeated-element",
                "valid-keyword-string-and-symbol-keys-distinct")) {
            Golden.Case c = Golden.cases().stream().filter(g -> g.name().equals(name)).findFirst().orElseThrow();
            AtomTable atoms = new AtomTable();
            IncrementalChecker checker = new IncrementalChecker(c.checkerOptions(), atoms);
            c.ops(atoms).forEach(checker::accept);
            verdicts.add(HistoryVerdict.of(name, checker.finish(), atoms));
        }
        AtomTable strings = new AtomTable();
        verdicts.add(HistoryVerdict.of("agent-ß", stringVerdict(strings), strings));
        SerializerRoundTrip.check(HistoryVerdictSerializer.INSTANCE, verdicts,
                v -> v.history() + "\n" + VerdictText.render(v.verdict(), v.atoms()) + "\n"
                        + VerdictJson.toJson(v.verdict(), v.atoms(), Double.NaN));
    }

    /** A G1a over string keys and elements, a keyword among them. */
    private static Verdict stringVerdict(AtomTable atoms) {
        long key = atoms.ofString("account-7");
        long aborted = atoms.ofString("ünïcode ✓");
        long other = atoms.ofKeyword("k");
        IncrementalChecker checker = new IncrementalChecker(io.isowatch.checker.CheckerOptions.defaults(), atoms);
        checker.accept(new Op(0, 1, OpType.INVOKE, 0, List.of(new MicroOp.Append(key, aborted))));
        checker.accept(new Op(1, 2, OpType.FAIL, 0, List.of(new MicroOp.Append(key, aborted))));
        checker.accept(new Op(2, 3, OpType.INVOKE, 1, List.of(new MicroOp.Read(key, null), new MicroOp.Append(other, 1))));
        checker.accept(new Op(3, 4, OpType.OK, 1,
                List.of(new MicroOp.Read(key, new long[] {aborted}), new MicroOp.Append(other, 1))));
        Verdict v = checker.finish();
        assertTrue(v.anomalyTypes().contains(io.isowatch.anomaly.AnomalyType.G1A), v::toString);
        return v;
    }

    private static Alert alert(String id, long delay) {
        return new Alert(id, "agent-ß", "G2-item", "G2-item: T1 -rw-> T2 -rw-> T1", List.of("serializable", "read-committed"),
                1_735_787_045_678L, delay, "ünïcode ✓\nline two", "{\"type\":\"G2-item\"}");
    }

    @Test
    void alert_writeRestoreCompare_liveAndReleasedAtEnd() throws Exception {
        SerializerRoundTrip.check(AlertSerializer.INSTANCE, List.of(
                alert("ab12", 12),
                alert("cd34", Alert.UNKNOWN_DELAY).released(Release.atEnd(AnomalyType.GARBAGE_READ)),
                alert("ef56", 0).released(Release.atEnd(AnomalyType.G2_ITEM)),
                alert("gh78", 3).recordedBy(List.of("shop-1", "shop-0")),
                new Alert("x".repeat(300), "", "garbage-read", "t", List.of(), 0, 5, "", "{}")));
    }

    /** Version 2 of the layout, which ended before the agents, still reads (no agents). */
    @Test
    void alert_version2Layout_isStillRead_withoutAgents() throws Exception {
        Alert a = alert("ab12", 12).released(Release.atEnd(AnomalyType.G2_ITEM));
        DataOutputSerializer out = new DataOutputSerializer(256);
        AlertSerializer.INSTANCE.serialize(a, out);
        byte[] v3 = out.getCopyOfBuffer();
        assertEquals(AlertSerializer.VERSION, v3[1]);
        byte[] v2 = java.util.Arrays.copyOf(v3, v3.length - 4); // without the agent count (0)
        v2[1] = 2;
        assertEquals(a, AlertSerializer.INSTANCE.deserialize(new DataInputDeserializer(v2)));
    }

    /** Alerts written by the serializer before it was versioned (this is its code) read as live alerts. */
    @Test
    void alert_firstUnversionedLayout_isStillRead_asLive() throws Exception {
        List<Alert> old = List.of(alert("ab12", 12), alert("y".repeat(200), Alert.UNKNOWN_DELAY),
                new Alert("z", "", "G0", "t", List.of(), 0, 0, "", "{}"));
        DataOutputSerializer out = new DataOutputSerializer(256);
        for (Alert a : old) {
            StringValue.writeString(a.id(), out);
            StringValue.writeString(a.history(), out);
            StringValue.writeString(a.type(), out);
            StringValue.writeString(a.title(), out);
            out.writeInt(a.models().size());
            for (String m : a.models()) {
                StringValue.writeString(m, out);
            }
            out.writeLong(a.detectedAtMillis());
            out.writeLong(a.detectionDelayMillis());
            StringValue.writeString(a.explanation(), out);
            StringValue.writeString(a.findingJson(), out);
        }
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        List<Alert> read = new ArrayList<>();
        for (int i = 0; i < old.size(); i++) {
            read.add(AlertSerializer.INSTANCE.deserialize(in));
        }
        assertEquals(0, in.available(), "bytes left over");
        assertEquals(old, read);
        assertTrue(read.stream().noneMatch(Alert::releasedAtEnd));
    }

    @Test
    void alert_unknownVersion_isRefusedByNumber() {
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> AlertSerializer.INSTANCE.deserialize(new DataInputDeserializer(new byte[] {0, 9, 1, 1})));
        assertTrue(e.getMessage().contains("alert layout version 9"), e.getMessage());
    }

    @Test
    void deadLetter_writeRestoreCompare() throws Exception {
        SerializerRoundTrip.check(DeadLetterSerializer.INSTANCE, List.of(
                new DeadLetter(DeadLetter.Kind.MALFORMED_RECORD, "field \"type\": unknown", "{\"type\":\"okay\"}",
                        "isowatch.history", 3, 1234),
                DeadLetter.of(DeadLetter.Kind.DOUBLE_INVOCATION, "invoked twice", "x".repeat(20_000))));
    }

    @Test
    void processProgress_writeRestoreCompare() throws Exception {
        SerializerRoundTrip.check(ProcessProgressSerializer.INSTANCE, List.of(
                new ProcessProgress(0, 0, false), new ProcessProgress(Long.MAX_VALUE, Long.MIN_VALUE, true)));
    }

    @Test
    void deadLetter_longRaw_isTruncatedWithMarker() {
        DeadLetter d = DeadLetter.of(DeadLetter.Kind.MALFORMED_RECORD, "e", "y".repeat(DeadLetter.MAX_RAW_CHARS + 5));
        assertEquals(DeadLetter.MAX_RAW_CHARS + "...[5 more chars]".length(), d.raw().length());
    }

    @Test
    void historyEvent_declaringTheAgentProtocol_keepsTheDeclarationThroughState() throws Exception {
        AtomTable atoms = new AtomTable();
        long key = atoms.ofString("user:1");
        HistoryEvent named = new HistoryEvent("a1", 0, new io.isowatch.history.Op(0, 1_000_000, io.isowatch.history.OpType.INVOKE, 1,
                List.of(new io.isowatch.history.MicroOp.Append(key, 1))), List.of("user:1"));
        SerializerRoundTrip.check(new HistoryEventSerializer(), List.of(
                Events.invoke("a1", 0, 1, 10).declaringAgentProtocol(), named.declaringAgentProtocol()));
    }
}
