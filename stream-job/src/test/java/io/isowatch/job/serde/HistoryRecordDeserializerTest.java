package io.isowatch.job.serde;

import io.isowatch.history.codec.BinaryEventCodec;
import io.isowatch.history.codec.HistoryEventJson;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.Events;

import org.apache.flink.types.Either;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HistoryRecordDeserializerTest {

    private final HistoryRecordDeserializer deserializer = new HistoryRecordDeserializer();

    private static ConsumerRecord<byte[], byte[]> record(long offset, String value) {
        return new ConsumerRecord<>("isowatch.history", 2, offset, "1".getBytes(StandardCharsets.US_ASCII),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    private static String shipped(HistoryEvent event, AtomTable atoms) {
        return new String(new HistoryEventJson().render(event, atoms), StandardCharsets.UTF_8);
    }

    private DeadLetter deadLetter(String value) {
        Either<DeadLetter, HistoryEvent> d = deserializer.decode(record(77, value));
        assertTrue(d.isLeft(), () -> "expected a dead letter for " + value + ", got " + d);
        DeadLetter letter = d.left();
        assertEquals(DeadLetter.Kind.MALFORMED_RECORD, letter.kind());
        assertEquals("isowatch.history", letter.topic());
        assertEquals(2, letter.partition());
        assertEquals(77, letter.offset());
        assertEquals(value == null ? "" : value, letter.raw());
        return letter;
    }

    @Test
    void decode_shipperRecord_givesTheShippedEvent() {
        HistoryEvent sent = Events.ok("agent-1", 12, 4, 1500);
        Either<DeadLetter, HistoryEvent> got = deserializer.decode(record(0, shipped(sent, new AtomTable())));
        assertTrue(got.isRight(), () -> String.valueOf(got));
        HistoryEvent e = got.right();
        assertEquals(sent.source(), e.source());
        assertEquals(sent.sequence(), e.sequence());
        assertEquals(sent.op().withIndex(e.op().index()).value(), e.op().value());
        assertEquals(sent.op().time(), e.op().time());
        assertEquals(sent.op().type(), e.op().type());
        assertEquals(sent.op().process(), e.op().process());
    }

    @Test
    void decode_stringKeys_travelWithTheirNames() {
        AtomTable agentAtoms = new AtomTable();
        long key = agentAtoms.ofString("user:42");
        HistoryEvent sent = new HistoryEvent("a", 0, new Op(0, 5_000_000, OpType.INVOKE, 1,
                List.of(new MicroOp.Append(key, 3), new MicroOp.Read(key, null))));
        HistoryEvent e = deserializer.decode(record(0, shipped(sent, agentAtoms))).right();
        long jobKey = e.op().value().get(0).key();
        assertEquals("user:42", e.atoms().valueOf(jobKey));
        AtomTable checkers = new AtomTable();
        checkers.ofString("another key first");
        assertEquals("user:42", checkers.valueOf(e.opIn(checkers).value().get(1).key()));
    }

    @Test
    void decode_identityFromHeaders_whenFieldsAbsent() {
        ConsumerRecord<byte[], byte[]> r = record(5,
                "{\"index\":0,\"time\":1000000,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\",1,null]]}");
        r.headers().add("agent", "from-header".getBytes(StandardCharsets.UTF_8));
        r.headers().add("seq", "9".getBytes(StandardCharsets.US_ASCII));
        HistoryEvent e = deserializer.decode(r).right();
        assertEquals("from-header", e.source());
        assertEquals(9, e.sequence());
    }

    @Test
    void decode_badType_namesFieldAndValue() {
        DeadLetter d = deadLetter("{\"index\":0,\"time\":1,\"type\":\"okay\",\"process\":1,\"f\":\"txn\",\"value\":[],\"agent\":\"a\",\"seq\":1}");
        assertTrue(d.error().contains("\"type\"") && d.error().contains("okay"), d.error());
    }

    @Test
    void decode_malformedRecords_becomeDeadLetters() {
        assertTrue(deadLetter("not json at all").error().contains("JSON"));
        assertTrue(deadLetter("{\"index\":0,\"time\":1,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[],\"agent\":\"a\"")
                .error().contains("JSON"));
        DeadLetter noSeq = deadLetter("{\"index\":0,\"time\":1,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[],\"agent\":\"a\"}");
        assertTrue(noSeq.error().contains("\"seq\""), noSeq.error());
        DeadLetter badSeq = deadLetter("{\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[],\"agent\":\"a\",\"seq\":-4}");
        assertTrue(badSeq.error().contains("\"seq\"") && badSeq.error().contains("-4"), badSeq.error());
        DeadLetter badAgent = deadLetter("{\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[],\"agent\":7,\"seq\":4}");
        assertTrue(badAgent.error().contains("\"agent\"") && badAgent.error().contains("7"), badAgent.error());
        DeadLetter noTime = deadLetter("{\"index\":0,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[],\"agent\":\"a\",\"seq\":1}");
        assertTrue(noTime.error().contains("\"time\""), noTime.error());
        DeadLetter badMop = deadLetter("{\"index\":0,\"time\":1,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"cas\",1,2]],\"agent\":\"a\",\"seq\":1}");
        assertTrue(badMop.error().contains("cas"), badMop.error());
        assertTrue(deadLetter(null).error().contains("no value"));
    }

    @Test
    void decode_identityOfTheWrongKind_namesFieldAndValue_evenWhenHeadersHaveIt() {
        String op = "{\"index\":0,\"time\":1,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[],";
        for (String[] bad : new String[][] {
                {"\"agent\":{\"id\":1},\"seq\":1", "\"agent\"", "an object"},
                {"\"agent\":null,\"seq\":1", "\"agent\"", "null"},
                {"\"agent\":\"a\",\"seq\":1.5", "\"seq\"", "1.5"},
                {"\"agent\":\"a\",\"seq\":\"7\"", "\"seq\"", "\"7\""},
                {"\"agent\":\"a\",\"seq\":99999999999999999999", "\"seq\"", "99999999999999999999"}}) {
            ConsumerRecord<byte[], byte[]> r = record(0, op + bad[0] + "}");
            r.headers().add("agent", "h".getBytes(StandardCharsets.UTF_8));
            r.headers().add("seq", "3".getBytes(StandardCharsets.US_ASCII));
            DeadLetter d = deserializer.decode(r).left();
            assertTrue(d.error().contains(bad[1]) && d.error().contains(bad[2]), bad[0] + " -> " + d.error());
        }
    }

    @Test
    void decode_recordWithoutAnOp_isADeadLetter_notSkipped() {
        assertTrue(deadLetter("").error().contains("found none"), deadLetter("").error());
        assertTrue(deadLetter("  \n").error().contains("found none"));
    }

    @Test
    void decode_afterABadRecord_identityIsNotCarriedOver() {
        deadLetter("{\"index\":0,\"time\":1,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[],\"agent\":7,\"seq\":4}");
        DeadLetter next = deadLetter("{\"index\":1,\"time\":2,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[]}");
        assertTrue(next.error().contains("\"agent\": missing"), next.error());
    }

    @Test
    void decode_nemesisOp_isSkipped() {
        assertNull(deserializer.decode(record(1,
                "{\"index\":0,\"time\":1,\"type\":\"info\",\"process\":\"nemesis\",\"f\":\"kill\",\"value\":null,\"agent\":\"a\",\"seq\":1}")));
    }

    private static ConsumerRecord<byte[], byte[]> binaryRecord(long offset, byte[] value) {
        return new ConsumerRecord<>("isowatch.history", 2, offset, "1".getBytes(StandardCharsets.US_ASCII), value);
    }

    @Test
    void decode_binaryRecord_givesTheSameEventAsItsJson_stringsIncluded() {
        AtomTable agentAtoms = new AtomTable();
        long key = agentAtoms.ofString("user:42");
        long value = agentAtoms.ofString("v-1");
        HistoryEvent sent = new HistoryEvent("agent-b", 9, new Op(9, 5_000_000, OpType.OK, 3,
                List.of(new MicroOp.Append(key, value), new MicroOp.Read(7, new long[] {1, 2}))));
        HistoryEvent fromJson = deserializer.decode(record(0, shipped(sent, agentAtoms))).right();
        Either<DeadLetter, HistoryEvent> got = deserializer.decode(
                binaryRecord(1, new BinaryEventCodec(agentAtoms).encode(sent)));
        assertTrue(got.isRight(), () -> String.valueOf(got));
        HistoryEvent fromBinary = got.right();
        assertEquals(sent.source(), fromBinary.source());
        assertEquals(sent.sequence(), fromBinary.sequence());
        AtomTable checkers = new AtomTable();
        assertEquals(fromJson.opIn(checkers).withIndex(0).value(), fromBinary.opIn(checkers).withIndex(0).value(),
                "the same micro-ops, keys and values, whichever form the record took");
        assertEquals(fromJson.op().time(), fromBinary.op().time());
        assertEquals(fromJson.op().type(), fromBinary.op().type());
        assertEquals(fromJson.op().process(), fromBinary.op().process());
        assertEquals("user:42", checkers.valueOf(fromBinary.opIn(checkers).value().get(0).key()));
        assertEquals("v-1", checkers.valueOf(((MicroOp.Append) fromBinary.opIn(checkers).value().get(0)).value()));
    }

    @Test
    void decode_binaryIntegerRecord_keepsTheRecordsBytesAsTheEventsEncoding() {
        HistoryEvent sent = new HistoryEvent("agent-b", 3, new Op(3, 7_000, OpType.OK, 1,
                List.of(new MicroOp.Append(4, 5), new MicroOp.Read(4, new long[] {5}))));
        byte[] value = new BinaryEventCodec(new AtomTable()).encode(sent);
        HistoryEvent got = deserializer.decode(binaryRecord(0, value)).right();
        assertEquals(sent, got);
        assertSame(value, got.encoding(), "written on to the checker as it came, not encoded again");
    }

    @Test
    void decode_binaryRecordWithoutTime_isADeadLetterStill() {
        HistoryEvent sent = new HistoryEvent("agent-b", 3, new Op(3, -1, OpType.OK, 1, List.of(new MicroOp.Append(4, 5))));
        Either<DeadLetter, HistoryEvent> got = deserializer.decode(binaryRecord(0, new BinaryEventCodec(new AtomTable()).encode(sent)));
        assertTrue(got.isLeft(), () -> String.valueOf(got));
        assertTrue(got.left().error().contains("\"time\""), got.left().error());
    }

    @Test
    void decode_binaryAndJsonRecordsInterleaved_eachKeepsItsOwnStrings() {
        AtomTable a = new AtomTable();
        HistoryEvent first = new HistoryEvent("x", 0, new Op(0, 1_000, OpType.INVOKE, 1,
                List.of(new MicroOp.Append(a.ofString("k1"), 1))));
        HistoryEvent second = new HistoryEvent("x", 1, new Op(1, 2_000, OpType.INVOKE, 2,
                List.of(new MicroOp.Append(a.ofString("k2"), 1))));
        HistoryEvent one = deserializer.decode(binaryRecord(0, new BinaryEventCodec(a).encode(first))).right();
        HistoryEvent two = deserializer.decode(record(1, shipped(second, a))).right();
        HistoryEvent three = deserializer.decode(binaryRecord(2, new BinaryEventCodec(a).encode(second))).right();
        AtomTable checkers = new AtomTable();
        assertEquals("k1", checkers.valueOf(one.opIn(checkers).value().get(0).key()));
        assertEquals("k2", checkers.valueOf(two.opIn(checkers).value().get(0).key()));
        assertEquals("k2", checkers.valueOf(three.opIn(checkers).value().get(0).key()));
    }

    @Test
    void decode_brokenBinaryRecord_isADeadLetterNamingTheByte_withTheBytesInHex() {
        byte[] whole = new BinaryEventCodec(new AtomTable()).encode(Events.ok("agent-1", 12, 4, 1500));
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 2);
        Either<DeadLetter, HistoryEvent> got = deserializer.decode(binaryRecord(77, cut));
        assertTrue(got.isLeft(), () -> String.valueOf(got));
        DeadLetter letter = got.left();
        assertEquals(DeadLetter.Kind.MALFORMED_RECORD, letter.kind());
        assertEquals(77, letter.offset());
        assertTrue(letter.error().startsWith("binary event record, at byte "), letter.error());
        assertEquals("binary event record, " + cut.length + " bytes: " + java.util.HexFormat.of().formatHex(cut),
                letter.raw());
        byte[] future = whole.clone();
        future[4] = 9; // a version this job does not know
        String error = deserializer.decode(binaryRecord(78, future)).left().error();
        assertTrue(error.startsWith("binary event record, at byte 4: isowatch binary event format version 9 is not supported"),
                error);
    }

    @Test
    void decode_binaryRecordWithoutTime_isADeadLetter() {
        HistoryEvent untimed = new HistoryEvent("a", 0, new Op(0, -1, OpType.INVOKE, 1, List.of()));
        DeadLetter letter = deserializer.decode(binaryRecord(3, new BinaryEventCodec(new AtomTable()).encode(untimed))).left();
        assertTrue(letter.error().contains("\"time\": missing"), letter.error());
    }

    @Test
    void decode_theProtocolHeaderOfAJsonRecord_declaresTheAgentProtocol_onTheFirstEventOnly() {
        String first = shipped(Events.invoke("a", 0, 1, 10), new AtomTable());
        ConsumerRecord<byte[], byte[]> declared = record(0, first);
        declared.headers().add(HistoryEvent.PROTOCOL_HEADER, HistoryEvent.AGENT_PROTOCOL.getBytes(StandardCharsets.US_ASCII));
        assertTrue(deserializer.decode(declared).right().declaresAgentProtocol());
        assertTrue(!deserializer.decode(record(0, first)).right().declaresAgentProtocol());

        ConsumerRecord<byte[], byte[]> unknown = record(1, first);
        unknown.headers().add(HistoryEvent.PROTOCOL_HEADER, "jepsen-3".getBytes(StandardCharsets.US_ASCII));
        DeadLetter d = deserializer.decode(unknown).left();
        assertTrue(d.error().contains("unknown protocol \"jepsen-3\""), d.error());

        ConsumerRecord<byte[], byte[]> late = record(2, shipped(Events.ok("a", 1, 1, 11), new AtomTable()));
        late.headers().add(HistoryEvent.PROTOCOL_HEADER, HistoryEvent.AGENT_PROTOCOL.getBytes(StandardCharsets.US_ASCII));
        d = deserializer.decode(late).left();
        assertTrue(d.error().contains("only a history's first event"), d.error());
    }

    @Test
    void decode_aBinaryRecordDeclaringTheProtocol_givesADeclaringEvent() {
        byte[] value = new BinaryEventCodec(new AtomTable()).encode(Events.invoke("a", 0, 1, 10).declaringAgentProtocol());
        assertTrue(deserializer.decode(binaryRecord(3, value)).right().declaresAgentProtocol());
    }

    // ---- the history a record belongs to (issue 37) ----

    private static final String OP_MAP = "{\"index\":0,\"time\":1000,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\","
            + "\"value\":[[\"append\",1,2]],\"agent\":\"orders-1\",\"seq\":0";

    private static <R extends ConsumerRecord<byte[], byte[]>> R withHistoryHeader(R r, String history) {
        r.headers().add(HistoryEvent.HISTORY_HEADER, history.getBytes(StandardCharsets.UTF_8));
        return r;
    }

    @Test
    void decode_binaryRecordWithTheHistoryHeader_namesTheHistory_andKeepsItsBytes() {
        HistoryEvent sent = new HistoryEvent("orders-1", 3, new Op(3, 7_000, OpType.OK, 1_000_000_001L,
                List.of(new MicroOp.Append(4, 1_000_000_005L))));
        byte[] value = new BinaryEventCodec(new AtomTable()).encode(sent);
        HistoryEvent got = deserializer.decode(withHistoryHeader(binaryRecord(0, value), "orders")).right();
        assertEquals("orders", got.history());
        assertEquals("orders-1", got.source());
        assertEquals(sent.inHistory("orders"), got);
        assertSame(value, got.encoding());
    }

    @Test
    void decode_binaryRecordWithStrings_andTheHistoryHeader_namesTheHistory() {
        AtomTable atoms = new AtomTable();
        HistoryEvent sent = new HistoryEvent("orders-1", 0, new Op(0, 7_000, OpType.INVOKE, 1,
                List.of(new MicroOp.Append(atoms.ofString("k"), 1)))).declaringAgentProtocol();
        HistoryEvent got = deserializer.decode(withHistoryHeader(binaryRecord(0,
                new BinaryEventCodec(atoms).encode(sent)), "orders")).right();
        assertEquals("orders", got.history());
        assertTrue(got.declaresAgentProtocol());
    }

    @Test
    void decode_jsonHistory_fromTheField_elseTheHeader_elseTheAgentsOwn() {
        assertEquals("orders", deserializer.decode(record(0, OP_MAP + ",\"history\":\"orders\"}")).right().history());
        assertEquals("from-field", deserializer.decode(withHistoryHeader(record(1,
                OP_MAP + ",\"history\":\"from-field\"}"), "from-header")).right().history());
        assertEquals("from-header", deserializer.decode(withHistoryHeader(record(2, OP_MAP + "}"), "from-header"))
                .right().history());
        HistoryEvent own = deserializer.decode(record(3, OP_MAP + "}")).right();
        assertEquals("orders-1", own.history(), "without a name, the agent's own history, as before");
        assertTrue(!own.namesHistory());
    }

    @Test
    void decode_aHistoryThatIsNoName_isADeadLetter() {
        assertTrue(deadLetter(OP_MAP + ",\"history\":5}").error().startsWith("field \"history\": expected the history's"
                + " name, a non-empty string, got 5"));
        assertTrue(deadLetter(OP_MAP + ",\"history\":\"\"}").error().contains("field \"history\""));
        Either<DeadLetter, HistoryEvent> empty = deserializer.decode(withHistoryHeader(binaryRecord(0,
                new BinaryEventCodec(new AtomTable()).encode(Events.ok("a", 1, 1, 5)) ), ""));
        assertTrue(empty.isLeft() && empty.left().error().startsWith("header \"history\": empty"), String.valueOf(empty));
    }
}
