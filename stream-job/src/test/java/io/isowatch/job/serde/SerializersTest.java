package io.isowatch.job.serde;

import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.Events;
import io.isowatch.job.operators.ProcessProgress;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SerializersTest {

    private static HistoryEvent withStrings() {
        long key = JobAtoms.locked(t -> t.ofString("account-7"));
        long value = JobAtoms.locked(t -> t.ofString("ünïcode ✓"));
        return new HistoryEvent("agent-ß", 42, new Op(9, 123_456_789L, OpType.OK, 3,
                List.of(new MicroOp.Write(key, value), new MicroOp.Read(key, new long[] {value, 5}),
                        new MicroOp.Append(-17, Long.MAX_VALUE))));
    }

    @Test
    void historyEvent_writeRestoreCompare() throws Exception {
        SerializerRoundTrip.check(new HistoryEventSerializer(), List.of(
                Events.invoke("a1", 0, 1, 10),
                Events.ok("a1", 1, 1, 11),
                new HistoryEvent("a2", 7, new Op(3, -1, OpType.INFO, 0, List.of())),
                withStrings()));
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
}
