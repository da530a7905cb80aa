package io.isowatch.agent.recorder;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.history.codec.HistoryReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventLogsTest {

    private static HistoryEvent event(long seq, OpType type, List<MicroOp> value) {
        return new HistoryEvent("a", seq, new Op(seq, seq * 10, type, 3, value));
    }

    @Test
    void jsonLines_writesJepsenOpsThatTheHistoryReaderReadsBack(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("history.jsonl");
        List<Op> written = new ArrayList<>();
        try (JsonLinesEventLog log = JsonLinesEventLog.open(file)) {
            HistoryEvent invoke = event(0, OpType.INVOKE, List.of(new MicroOp.Append(1, 2), new MicroOp.Read(1, null)));
            HistoryEvent ok = event(1, OpType.OK, List.of(new MicroOp.Append(1, 2), new MicroOp.Read(1, new long[] {2})));
            log.append(invoke);
            log.append(ok);
            written.add(invoke.op());
            written.add(ok.op());
        }
        String text = Files.readString(file);
        assertTrue(text.startsWith("{\"index\":0,\"time\":0,\"type\":\"invoke\",\"process\":3,\"f\":\"txn\""), text);
        List<Op> read = new ArrayList<>();
        try (HistoryReader reader = HistoryReader.open(file, new AtomTable())) {
            for (Op op = reader.next(); op != null; op = reader.next()) {
                read.add(op.withIndex(op.index()));
            }
        }
        assertEquals(2, read.size());
        for (int i = 0; i < 2; i++) {
            assertEquals(written.get(i).value(), read.get(i).value());
            assertEquals(written.get(i).type(), read.get(i).type());
            assertEquals(written.get(i).index(), read.get(i).index());
            assertEquals(written.get(i).time(), read.get(i).time());
        }
    }

    @Test
    void jsonLines_appendAfterClose_isRejected(@TempDir Path dir) {
        JsonLinesEventLog log = JsonLinesEventLog.open(dir.resolve("h.jsonl"));
        log.close();
        log.close();
        assertThrows(IllegalStateException.class, () -> log.append(event(0, OpType.INVOKE, List.of())));
    }

    @Test
    void tee_appendsToEveryLog_andClosesAllEvenWhenOneFails() {
        InMemoryEventLog a = new InMemoryEventLog();
        InMemoryEventLog b = new InMemoryEventLog();
        EventLog failing = new EventLog() {
            @Override
            public void append(HistoryEvent event) {
            }

            @Override
            public void close() {
                throw new IllegalStateException("boom");
            }
        };
        TeeEventLog tee = new TeeEventLog(a, failing, b);
        tee.append(event(0, OpType.INVOKE, List.of()));
        assertEquals(1, a.size());
        assertEquals(1, b.size());
        assertThrows(IllegalStateException.class, tee::close);
        assertThrows(IllegalStateException.class, () -> b.append(event(1, OpType.INVOKE, List.of())));
    }
}
