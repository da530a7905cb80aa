package io.isowatch.history.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp.Append;
import io.isowatch.history.MicroOp.Read;
import io.isowatch.history.MicroOp.Write;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The fragments the findings JSON splices in; {@link JsonLinesWriterTest} covers the lines. */
class HistoryEventJsonTest {

    private final HistoryEventJson json = new HistoryEventJson();
    private final AtomTable atoms = new AtomTable();

    @Test
    void op_isTheLineWithoutItsNewline() throws IOException {
        Op op = new Op(4, 9, OpType.OK, 2, List.of(new Append(5, 1), new Read(6, new long[] {1}), new Read(7, null)));
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        json.writeLine(op, atoms, line);
        assertEquals(line.toString(StandardCharsets.UTF_8), json.op(op, atoms, false) + "\n");
    }

    @Test
    void registerReads_printNilForUnknownAndInitial_andOneValueBare() {
        Op op = new Op(1, -1, OpType.OK, 0, List.of(new Write(1, 2), new Read(1, new long[] {2}),
                new Read(2, new long[0]), new Read(3, null), new Read(4, new long[] {1, 2})));
        assertEquals("{\"index\":1,\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":"
                + "[[\"w\",1,2],[\"r\",1,2],[\"r\",2,null],[\"r\",3,null],[\"r\",4,[1,2]]]}", json.op(op, atoms, true));
        assertEquals("{\"index\":1,\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":"
                + "[[\"w\",1,2],[\"r\",1,[2]],[\"r\",2,[]],[\"r\",3,null],[\"r\",4,[1,2]]]}", json.op(op, atoms, false));
        assertEquals("[\"r\",1,2]", json.microOp(new Read(1, new long[] {2}), atoms, true));
        assertEquals("null", json.readValue(new long[0], atoms, true));
        assertEquals("[]", json.readValue(new long[0], atoms, false));
    }

    /** The findings JSON spliced Jackson's strings before; every character must come out as Jackson wrote it. */
    @Test
    void stringAtoms_areWrittenAsJacksonWritesThem() throws IOException {
        StringBuilder all = new StringBuilder();
        for (char c = 0; c < 0x100; c++) {
            all.append(c);
        }
        all.append("\u2028\u2029\uFFFF\uD83D\uDE00\"\\/<>&'");
        for (String s : List.of(all.toString(), "", "plain", "k\u000B\u001F")) {
            StringWriter jackson = new StringWriter();
            try (JsonGenerator g = new JsonFactory().createGenerator(jackson)) {
                g.writeString(s);
            }
            assertEquals(jackson.toString(), json.atom(atoms.ofString(s), atoms));
        }
    }

    @Test
    void loneSurrogate_isEscaped() {
        assertEquals("\"a\\uD800b\"", json.atom(atoms.ofString("a\uD800b"), atoms));
    }

    @Test
    void integerAtoms_areNumbers() {
        assertEquals("-5", json.atom(-5, atoms));
        assertEquals("9223372036854775807", json.atom(Long.MAX_VALUE, atoms));
    }

    /** A record names its history only when its event does, so an agent without --history writes the same bytes as before. */
    @Test
    void render_addsTheHistoryField_onlyForAnEventThatNamesOne() {
        Op op = new Op(3, 120, OpType.OK, 1, List.of(new Append(5, 1)));
        String own = "{\"index\":3,\"time\":120,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",5,1]],"
                + "\"agent\":\"a1\",\"seq\":3";
        HistoryEvent event = new HistoryEvent("a1", 3, op);
        assertEquals(own + "}", new String(json.render(event, atoms), StandardCharsets.UTF_8));
        assertEquals(own + ",\"history\":\"orders \\\"eu\\\"\"}",
                new String(json.render(event.inHistory("orders \"eu\""), atoms), StandardCharsets.UTF_8));
    }
}
