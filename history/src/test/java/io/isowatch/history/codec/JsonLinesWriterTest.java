package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp.Append;
import io.isowatch.history.MicroOp.Read;
import io.isowatch.history.MicroOp.Write;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonLinesWriterTest {

    private static String write(AtomTable atoms, Op... ops) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonLinesWriter writer = new JsonLinesWriter(bytes, atoms)) {
            for (Op op : ops) {
                writer.write(op);
            }
            assertEquals(ops.length, writer.opsWritten());
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void write_listAppendOp_fieldsInJepsenOrder() {
        Op op = new Op(0, 12, OpType.INVOKE, 0, List.of(new Append(5, 1), new Read(6, null)));
        assertEquals("{\"index\":0,\"time\":12,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\","
                + "\"value\":[[\"append\",5,1],[\"r\",6,null]]}\n", write(new AtomTable(), op));
    }

    @Test
    void write_unknownTime_isLeftOut() {
        Op op = new Op(7, -1, OpType.OK, 3, List.of(new Read(6, new long[] {1, 2}), new Read(7, new long[0])));
        assertEquals("{\"index\":7,\"type\":\"ok\",\"process\":3,\"f\":\"txn\","
                + "\"value\":[[\"r\",6,[1,2]],[\"r\",7,[]]]}\n", write(new AtomTable(), op));
    }

    @Test
    void write_stringAtoms_areQuotedAndEscaped() {
        AtomTable atoms = new AtomTable();
        long key = atoms.ofString("k\"1\\");
        long value = atoms.ofString("ü\n😀");
        Op op = new Op(1, 5, OpType.FAIL, -2, List.of(new Write(key, value), new Write(-9, Long.MAX_VALUE)));
        assertEquals("{\"index\":1,\"time\":5,\"type\":\"fail\",\"process\":-2,\"f\":\"txn\","
                + "\"value\":[[\"w\",\"k\\\"1\\\\\",\"ü\\n😀\"],[\"w\",-9,9223372036854775807]]}\n", write(atoms, op));
    }

    @Test
    void write_thenRead_givesEqualOpsWithLines(@TempDir Path dir) {
        AtomTable atoms = new AtomTable();
        long s = atoms.ofString("s");
        List<Op> ops = List.of(
                new Op(0, 1, OpType.INVOKE, 0, List.of(new Append(s, 1), new Read(s, null))),
                new Op(1, -1, OpType.INFO, 0, List.of(new Append(s, 1), new Read(s, new long[] {s, 1}))),
                new Op(2, 3, OpType.INVOKE, 1, List.of()));
        Path file = dir.resolve("h.jsonl");
        try (JsonLinesWriter writer = JsonLinesWriter.open(file, atoms)) {
            ops.forEach(writer::write);
        }
        List<Op> back;
        try (HistoryReader reader = HistoryReader.open(file, atoms)) {
            back = HistoryReaderTest.drain(reader);
        }
        for (int i = 0; i < ops.size(); i++) {
            Op o = ops.get(i);
            assertEquals(new Op(o.index(), o.time(), o.type(), o.process(), o.value(), i + 1), back.get(i));
        }
    }

    @Test
    void flush_pushesBufferedLinesToTheStream() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        JsonLinesWriter writer = new JsonLinesWriter(bytes, new AtomTable());
        writer.write(new Op(0, -1, OpType.INVOKE, 0, List.of()));
        writer.flush();
        assertTrue(bytes.toString(StandardCharsets.UTF_8).endsWith("}\n"));
        writer.close();
    }

    @Test
    void write_stringAtomOfAnotherTable_isRejected() {
        AtomTable other = new AtomTable();
        other.ofString("a");
        other.ofString("b");
        Op op = new Op(0, -1, OpType.INVOKE, 0, List.of(new Append(other.ofString("b"), 1)));
        JsonLinesWriter writer = new JsonLinesWriter(new ByteArrayOutputStream(), new AtomTable());
        assertThrows(IllegalArgumentException.class, () -> writer.write(op));
    }

    @Test
    void open_missingDirectory_throwsUncheckedIo(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("no/such/dir/h.jsonl");
        assertThrows(java.io.UncheckedIOException.class, () -> JsonLinesWriter.open(file, new AtomTable()));
        assertTrue(Files.notExists(file));
    }
}
