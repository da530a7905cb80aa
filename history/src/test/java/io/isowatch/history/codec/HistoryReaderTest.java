package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.MicroOp.Append;
import io.isowatch.history.MicroOp.Read;
import io.isowatch.history.MicroOp.Write;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.history.codec.HistoryReader.Format;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HistoryReaderTest {

    /** Reads every op of a text history with a fresh atom table. */
    static List<Op> readAll(String sourceName, String text) {
        return readAll(sourceName, text, new AtomTable());
    }

    static List<Op> readAll(String sourceName, String text, AtomTable atoms) {
        try (HistoryReader reader = reader(sourceName, text, atoms)) {
            return drain(reader);
        }
    }

    static HistoryReader reader(String sourceName, String text, AtomTable atoms) {
        return HistoryReader.open(sourceName, new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), atoms);
    }

    static List<Op> drain(HistoryReader reader) {
        List<Op> ops = new ArrayList<>();
        Op op;
        while ((op = reader.next()) != null) {
            ops.add(op);
        }
        return ops;
    }

    private static Path resource(String name) {
        try {
            return Path.of(HistoryReaderTest.class.getResource("/codec/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The client ops of the list-append sample, with source lines for the JSON lines file. */
    private static List<Op> listAppendSample(AtomTable atoms) {
        return listAppendSample(atoms, atoms.ofString("x"));
    }

    /** The sample with key {@code x} as the given atom (a keyword in EDN, a string in JSON). */
    private static List<Op> listAppendSample(AtomTable atoms, long x) {
        long y = atoms.ofString("y");
        long v1 = atoms.ofString("v1");
        return List.of(
                new Op(0, 3291485317L, OpType.INVOKE, 0, List.of(new Append(9, 1), new Read(8, null)), 1),
                new Op(2, 3306123456L, OpType.OK, 0, List.of(new Append(9, 1), new Read(8, new long[] {1, 2})), 3),
                new Op(4, 3310000000L, OpType.INVOKE, 1, List.of(new Read(x, null), new Append(y, v1)), 5),
                new Op(5, 3311000000L, OpType.FAIL, 1, List.of(new Read(x, null), new Append(y, v1)), 6),
                new Op(6, 3312000000L, OpType.INVOKE, 2, List.of(new Read(9, null)), 7),
                new Op(7, 3313000000L, OpType.INFO, 2, List.of(new Read(9, null)), 8));
    }

    private static List<Op> withoutLines(List<Op> ops) {
        return ops.stream().map(o -> new Op(o.index(), o.time(), o.type(), o.process(), o.value())).toList();
    }

    @Test
    void jsonLines_sample_readsClientOpsWithSourceLines() {
        AtomTable atoms = new AtomTable();
        try (HistoryReader reader = HistoryReader.open(resource("list-append.jsonl"), atoms)) {
            assertEquals(Format.JSON, reader.format());
            assertEquals(listAppendSample(atoms), drain(reader));
            assertEquals(2, reader.opsSkipped());
        }
    }

    @Test
    void ofJson_withShippedIdentity_handsOverAgentAndSeq_asWritten_andTheSameOp() {
        String json = "{\"agent\":\"a1\",\"index\":3,\"time\":120,\"type\":\"ok\",\"process\":1,"
                + "\"f\":\"txn\",\"value\":[[\"append\",5,1]],\"seq\":42}";
        AtomTable atoms = new AtomTable();
        ShippedIdentity identity = new ShippedIdentity();
        Op withIdentity;
        try (HistoryReader reader = HistoryReader.ofJson("t-0@1", bytes(json), atoms, identity)) {
            withIdentity = reader.next();
        }
        try (HistoryReader reader = HistoryReader.ofJson("t-0@1", bytes(json), atoms)) {
            assertEquals(reader.next(), withIdentity);
        }
        assertTrue(identity.hasAgent() && identity.hasSeq());
        assertEquals("a1", identity.agent());
        assertEquals("\"a1\"", identity.agentText());
        assertEquals(42, identity.seq());
        assertEquals("42", identity.seqText());

        // Wrong kinds are kept as written, not judged; absent fields read as absent.
        try (HistoryReader reader = HistoryReader.ofJson("t-0@2",
                bytes("{\"index\":4,\"time\":130,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[],"
                        + "\"agent\":[1,2],\"seq\":-3}"), atoms, identity)) {
            assertEquals(4, reader.next().index());
        }
        assertNull(identity.agent());
        assertEquals("an array", identity.agentText());
        assertEquals(-1, identity.seq());
        assertEquals("-3", identity.seqText());
        try (HistoryReader reader = HistoryReader.ofJson("t-0@3",
                bytes("{\"index\":5,\"time\":140,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[]}"), atoms, identity)) {
            assertEquals(5, reader.next().index());
        }
        assertFalse(identity.hasAgent() || identity.hasSeq());
        assertNull(identity.agentText());
        assertNull(identity.seqText());
        assertEquals(-1, identity.seq());
    }

    /**
     * The optional {@code history} field (issue 37) is handed over by both readers: the fast
     * scanner (plain ASCII) and the general one (an escape sends the line there); a record without
     * it reads as before, and an op reads the same with it.
     */
    @Test
    void ofJson_withShippedIdentity_handsOverTheHistoryField_fromEitherReader() {
        AtomTable atoms = new AtomTable();
        ShippedIdentity identity = new ShippedIdentity();
        String op = "{\"index\":3,\"time\":120,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",5,1]],"
                + "\"agent\":\"orders-2\",\"seq\":3,";
        Op plain;
        try (HistoryReader reader = HistoryReader.ofJson("t-0@1", bytes(op + "\"history\":\"orders\"}"), atoms, identity)) {
            plain = reader.next();
        }
        assertTrue(identity.hasHistory());
        assertEquals("orders", identity.history());
        assertEquals("\"orders\"", identity.historyText());
        try (HistoryReader reader = HistoryReader.ofJson("t-0@2", bytes(op + "\"history\":\"ord\\u0065rs\"}"), atoms,
                identity)) {
            assertEquals(plain, reader.next());
        }
        assertEquals("orders", identity.history(), "the general reader unescapes it");
        try (HistoryReader reader = HistoryReader.ofJson("t-0@5", bytes(op + "\"history\":\"orders\"}"), atoms)) {
            assertEquals(plain, reader.next(), "a reader that wants no identity skips the field, as check does");
        }
        try (HistoryReader reader = HistoryReader.ofJson("t-0@3", bytes(op + "\"history\":7}"), atoms, identity)) {
            reader.next();
        }
        assertNull(identity.history());
        assertEquals("7", identity.historyText());
        try (HistoryReader reader = HistoryReader.ofJson("t-0@4", bytes(op.substring(0, op.length() - 1) + "}"), atoms,
                identity)) {
            assertEquals(plain, reader.next());
        }
        assertFalse(identity.hasHistory());
        assertNull(identity.historyText());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void edn_sample_readsSameOpsAsJsonLines() {
        AtomTable atoms = new AtomTable();
        try (HistoryReader reader = HistoryReader.open(resource("list-append.edn"), atoms)) {
            assertEquals(Format.EDN, reader.format());
            List<Op> ops = drain(reader);
            assertEquals(withoutLines(listAppendSample(atoms, atoms.ofKeyword("x"))), withoutLines(ops));
            assertEquals(2, ops.get(0).sourceLine(), "the comment takes line 1");
            assertEquals(2, reader.opsSkipped());
        }
    }

    @Test
    void jsonArray_withColonNames_readsSameOpsAsJsonLines() {
        AtomTable atoms = new AtomTable();
        try (HistoryReader reader = HistoryReader.open(resource("list-append.json"), atoms)) {
            assertEquals(Format.JSON, reader.format());
            List<Op> ops = drain(reader);
            assertEquals(withoutLines(listAppendSample(atoms)), withoutLines(ops));
            assertEquals(2, ops.get(0).sourceLine());
            assertEquals(2, reader.opsSkipped());
        }
    }

    @Test
    void ednVector_registerHistory_readsScalarReadsAsOneElement() {
        List<Op> ops;
        try (HistoryReader reader = HistoryReader.open(resource("rw-register.edn"), new AtomTable())) {
            ops = drain(reader);
        }
        assertEquals(4, ops.size());
        assertEquals(List.of(new Write(1, 5), new Read(2, new long[] {7})), ops.get(1).value());
        assertEquals(List.of(new Read(1, null)), ops.get(3).value());
        assertEquals(4, ops.get(3).sourceLine());
    }

    @Test
    void readResults_nullEmptyListAndScalar_areDistinguished() {
        String text = "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":"
                + "[[\"r\",1,null],[\"r\",2,[]],[\"r\",3,5],[\"r\",4,\"s\"],[\"r\",5,[6,7]]]}\n";
        AtomTable atoms = new AtomTable();
        List<MicroOp> value = readAll("t.jsonl", text, atoms).get(0).value();
        assertNull(((Read) value.get(0)).values());
        assertArrayEquals(new long[0], ((Read) value.get(1)).values());
        assertArrayEquals(new long[] {5}, ((Read) value.get(2)).values());
        assertArrayEquals(new long[] {atoms.ofString("s")}, ((Read) value.get(3)).values());
        assertArrayEquals(new long[] {6, 7}, ((Read) value.get(4)).values());
    }

    @Test
    void missingIndex_usesOrdinalCountingSkippedOps() {
        String text = """
                {:type :invoke, :process 0, :f :txn, :value [[:append 1 1]]}
                {:type :info, :process :nemesis, :f :kill, :value nil}
                {:type :ok, :process 0, :f :txn, :value [[:append 1 1]]}
                {:type :invoke, :process 0, :f :txn, :value [], :index 40}
                {:type :ok, :process 0, :f :txn, :value []}
                """;
        try (HistoryReader reader = reader("h.edn", text, new AtomTable())) {
            List<Op> ops = drain(reader);
            assertEquals(List.of(0L, 2L, 40L, 4L), ops.stream().map(Op::index).toList());
            assertEquals(1, reader.opsSkipped());
        }
    }

    @Test
    void missingOrNullTime_isMinusOne() {
        String text = "{\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[]}\n"
                + "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[],\"time\":null}\n";
        List<Op> ops = readAll("t.jsonl", text);
        assertEquals(-1, ops.get(0).time());
        assertEquals(-1, ops.get(1).time());
    }

    /** Elle reads a client op's micro-ops from its value alone: :f is never looked at. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "h.jsonl | {\"type\":\"invoke\",\"process\":0,\"f\":\"append\",\"value\":[[\"append\",1,2]]}",
        "h.jsonl | {\"type\":\"invoke\",\"process\":0,\"f\":7,\"value\":[[\"append\",1,2]]}",
        "h.jsonl | {\"type\":\"invoke\",\"process\":0,\"value\":[[\"append\",1,2]]}",
        "h.edn   | {:type :invoke, :process 0, :f :read, :value [[:append 1 2]]}",
        "h.edn   | {:type :invoke, :process 0, :f nil, :value [[:append 1 2]]}",
    })
    void clientOp_anyF_isATransactionOfItsValue(String file, String line) {
        List<Op> ops = readAll(file, line);
        assertEquals(List.of(new Append(1, 2)), ops.get(0).value());
    }

    /** Jepsen's client-op?: only an integer process is a client; every other op is skipped. */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "h.jsonl | {\"type\":\"info\",\"process\":null,\"f\":\"start\",\"value\":5}",
        "h.jsonl | {\"type\":\"info\",\"process\":1.5,\"f\":\"start\",\"value\":5}",
        "h.jsonl | {\"type\":\"info\",\"process\":\"3\",\"f\":\"start\",\"value\":5}",
        "h.jsonl | {\"type\":\"info\",\"process\":[1],\"f\":\"start\",\"value\":5}",
        "h.edn   | {:type :info, :process nil, :f :start, :value 5}",
        "h.edn   | {:type :info, :process nemesis, :f :start, :value 5}",
        "h.edn   | {:type :info, :process {:node \"n1\"}, :f :start, :value 5}",
        "h.edn   | {:index 0, :type :invoke, :value [[:append 253 1]]}",
        "h.jsonl | {\"index\":0,\"type\":\"invoke\",\"value\":[[\"append\",253,1]]}",
    })
    void nonIntegerProcess_isNotAClient_andIsSkipped(String file, String line) {
        try (HistoryReader reader = reader(file, line + "\n", new AtomTable())) {
            assertEquals(List.of(), drain(reader));
            assertEquals(1, reader.opsSkipped());
        }
    }

    /** A nil or absent value holds no micro-ops, as Elle reads (:value op) of nil. */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "h.jsonl | {\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":null}",
        "h.jsonl | {\"type\":\"ok\",\"process\":0,\"f\":\"txn\"}",
        "h.edn   | {:type :ok, :process 0, :f :txn, :value nil}",
        "h.edn   | {:type :ok, :process 0, :f :txn}",
    })
    void nilOrAbsentValue_isAnEmptyTransaction(String file, String line) {
        assertEquals(List.of(), readAll(file, line).get(0).value());
    }

    @Test
    void ednKeywordStringAndSymbol_areThreeKeys_asInElle() {
        AtomTable atoms = new AtomTable();
        Op edn = readAll("a.edn", "{:type :invoke, :process 0, :f :txn, :value [[:append :k 1] [:append \"k\" 2] "
                + "[:append k 3] [:r :k [:v \"v\" v]]]}", atoms).get(0);
        Op json = readAll("a.json", "{\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"append\",\"k\",2]]}",
                atoms).get(0);
        long keyword = edn.value().get(0).key();
        long string = edn.value().get(1).key();
        long symbol = edn.value().get(2).key();
        assertEquals(3, java.util.Set.of(keyword, string, symbol).size());
        assertEquals(string, json.value().get(0).key(), "a JSON string is an EDN string");
        assertEquals(List.of(":k", "\"k\"", "k"), List.of(atoms.render(keyword), atoms.render(string), atoms.render(symbol)));
        long[] read = ((Read) edn.value().get(3)).values();
        assertEquals(3, java.util.Arrays.stream(read).distinct().count());
        assertEquals("k", atoms.valueOf(keyword), "formats without keywords carry the name");
    }

    @Test
    void nemesisOp_valueBeforeProcess_isSkippedWhateverItsValue() {
        String text = "{\"type\":\"info\",\"f\":\"start\",\"value\":[[\"inc\",1.5],{\"a\":[1]}],\"process\":\"nemesis\"}\n"
                + "{\"type\":\"info\",\"f\":\"stop\",\"value\":{\"n1\":2.5},\"process\":\":nemesis\"}\n"
                + "{\"type\":\"invoke\",\"f\":\"txn\",\"value\":[[\"w\",1,2]],\"process\":3}\n";
        try (HistoryReader reader = reader("n.jsonl", text, new AtomTable())) {
            List<Op> ops = drain(reader);
            assertEquals(1, ops.size());
            assertEquals(2, ops.get(0).index());
            assertEquals(3, ops.get(0).sourceLine());
            assertEquals(2, reader.opsSkipped());
        }
    }

    @Test
    void ednNemesisOp_valueBeforeProcess_isSkippedWhateverItsValue() {
        String text = "{:type :info, :f :start, :value [[:inc 1.5] {:a #{1}} \\c ##Inf 1/2], :process :nemesis}\n"
                + "{:type :invoke, :f :txn, :value [[:w 1 2]], :process 3}\n";
        try (HistoryReader reader = reader("n.edn", text, new AtomTable())) {
            assertEquals(1, drain(reader).size());
            assertEquals(1, reader.opsSkipped());
        }
    }

    @Test
    void unknownFields_nestedAnywhere_areIgnored() {
        String text = "{\"node\":{\"a\":[1,{\"b\":null}]},\"type\":\"ok\",\"error\":[1.5,true],\"process\":0,"
                + "\"f\":\"txn\",\"value\":[[\"append\",1,2]],\"extra\":\"x\"}";
        Op op = readAll("u.json", text).get(0);
        assertEquals(List.of(new Append(1, 2)), op.value());
    }

    @Test
    void jsonLines_objectsOnOneLineOrCrlf_areAllRead() {
        String text = "{\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[]}"
                + "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[]}\r\n"
                + "\r\n{\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[]}\r\n";
        List<Op> ops = readAll("c.jsonl", text);
        assertEquals(List.of(1L, 1L, 3L), ops.stream().map(Op::sourceLine).toList());
        assertEquals(List.of(0L, 1L, 2L), ops.stream().map(Op::index).toList());
    }

    @Test
    void byteOrderMark_isSkipped() {
        String json = "\uFEFF{\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[]}";
        String edn = "\uFEFF{:type :invoke, :process 0, :f :txn, :value []}";
        assertEquals(1, readAll("b.jsonl", json).size());
        assertEquals(1, readAll("b.edn", edn).size());
    }

    @Test
    void emptyInput_hasNoOps_andStaysAtEnd() {
        for (String text : new String[] {"", "  \n\n", "[]", "[ ]\n"}) {
            for (String name : new String[] {"e.jsonl", "e.edn"}) {
                try (HistoryReader reader = reader(name, text, new AtomTable())) {
                    assertNull(reader.next(), name + " " + text);
                    assertNull(reader.next());
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} named {1} is {2}")
    @CsvSource(delimiter = '|', value = {
        "{\"type\":\"ok\"}                      | h.edn      | JSON",
        "  \\n {  \"type\":\"ok\"}                | h          | JSON",
        "[{\"type\":\"ok\"}]                    | h.edn      | JSON",
        "[ \\n { \"type\":\"ok\"}]               | h.edn      | JSON",
        "{:type :ok}                            | h.json     | EDN",
        "[{:type :ok}]                          | h.jsonl    | EDN",
        "({:type :ok})                          | h.json     | EDN",
        "; comment                              | h.json     | EDN",
        "[[:append 1 2]]                        | h.json     | EDN",
        "[]                                     | h.edn      | EDN",
        "[]                                     | h.EDN.gz   | EDN",
        "[]                                     | h.json     | JSON",
        "{}                                     | h.edn      | EDN",
        "{}                                     | history    | JSON",
        "''                                     | h.edn      | EDN",
        "''                                     | h.jsonl    | JSON",
    })
    void detect_contentDecides_nameBreaksTies(String text, String name, Format expected) throws IOException {
        String content = text.equals("''") ? "" : text.replace("\\n", "\n");
        var in = new java.io.BufferedInputStream(new ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8)));
        assertEquals(expected, HistoryReader.detect(in, name));
        assertEquals(content.isEmpty() ? -1 : content.charAt(0), in.read(), "detection leaves the stream where it was");
    }

    @Test
    void detect_taggedFirstOp_isEdn() throws IOException {
        var in = new java.io.BufferedInputStream(new ByteArrayInputStream(
                "#jepsen.history.Op{:type :ok}".getBytes(StandardCharsets.UTF_8)));
        assertEquals(Format.EDN, HistoryReader.detect(in, "h.json"));
    }

    @Test
    void gzippedInput_isUnpacked() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write("{:type :invoke, :process 0, :f :txn, :value [[:append 1 2]]}".getBytes(StandardCharsets.UTF_8));
        }
        try (HistoryReader reader = HistoryReader.open("h.edn.gz", new ByteArrayInputStream(bytes.toByteArray()),
                new AtomTable())) {
            assertEquals(Format.EDN, reader.format());
            assertEquals(List.of(new Append(1, 2)), reader.next().value());
        }
    }

    @Test
    void openPath_namesTheFileInMessages(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("bad.jsonl");
        Files.writeString(file, "{\"type\":\"okay\",\"process\":0}\n");
        try (HistoryReader reader = HistoryReader.open(file, new AtomTable())) {
            HistoryFormatException e = assertThrows(HistoryFormatException.class, reader::next);
            assertEquals(file.toString(), e.sourceName());
            assertTrue(e.getMessage().startsWith(file + ":1: "), e.getMessage());
        }
    }

    @Test
    void openPath_missingFile_throwsUncheckedIo(@TempDir Path dir) {
        assertThrows(UncheckedIOException.class, () -> HistoryReader.open(dir.resolve("nope.jsonl"), new AtomTable()));
    }

    @Test
    void close_closesTheStream() {
        boolean[] closed = {false};
        InputStream in = new ByteArrayInputStream(new byte[0]) {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        for (String name : new String[] {"c.jsonl", "c.edn"}) {
            closed[0] = false;
            HistoryReader.open(name, in, new AtomTable()).close();
            assertTrue(closed[0], name);
        }
    }

    @Test
    void largeStream_isReadWithoutHoldingIt() {
        int count = 200_000;
        InputStream in = new InputStream() {
            private final byte[] line = "{\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"append\",1,2],[\"r\",3,[1,2,3]]]}\n"
                    .getBytes(StandardCharsets.US_ASCII);
            private long pos;

            @Override
            public int read() {
                if (pos >= (long) count * line.length) {
                    return -1;
                }
                return line[(int) (pos++ % line.length)];
            }
        };
        long n = 0;
        long lastLine = 0;
        try (HistoryReader reader = HistoryReader.open("big.jsonl", in, new AtomTable())) {
            Op op;
            while ((op = reader.next()) != null) {
                n++;
                lastLine = op.sourceLine();
            }
        }
        assertEquals(count, n);
        assertEquals(count, lastLine);
    }

    @Test
    void missingF_onAClientOp_isATransaction() {
        // Elle's own histories often leave :f out; elle-cli reads such rows as :txn.
        String json = "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"value\":[[\"r\",1,null]]}\n"
                + "{\"index\":1,\"type\":\"ok\",\"process\":0,\"value\":[[\"r\",1,[]]]}\n";
        try (HistoryReader r = HistoryReader.open("no-f.jsonl",
                new java.io.ByteArrayInputStream(json.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                new AtomTable())) {
            org.junit.jupiter.api.Assertions.assertEquals(io.isowatch.history.OpType.INVOKE, r.next().type());
            org.junit.jupiter.api.Assertions.assertEquals(io.isowatch.history.OpType.OK, r.next().type());
            org.junit.jupiter.api.Assertions.assertNull(r.next());
        }
    }
}
