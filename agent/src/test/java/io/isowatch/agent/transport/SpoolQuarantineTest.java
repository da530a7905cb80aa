package io.isowatch.agent.transport;

import io.isowatch.agent.metrics.AgentMetricNames;
import io.isowatch.agent.metrics.AgentMetrics;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Corrupt records in a real spool: reported with their index and bytes, skipped, set aside once. */
class SpoolQuarantineTest {

    @TempDir
    Path dir;

    @Test
    void tailer_atACorruptRecord_reportsItsIndexAndBytes_thenReadsOnPastIt() {
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            KafkaShipperTest.appendEvents(log, "a", 0, 3);
        }
        byte[] bad = CorruptRecords.badSequence("a", 3);
        long badIndex = CorruptRecords.append(dir, bad);
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            KafkaShipperTest.appendEvents(log, "a", 4, 6);
            try (SpoolTailer tailer = log.tailer(ChronicleHistoryLog.NO_INDEX)) {
                for (long seq = 0; seq < 3; seq++) {
                    assertEquals(seq, tailer.next().sequence());
                }
                CorruptRecordException e = assertThrows(CorruptRecordException.class, tailer::next);
                assertEquals(badIndex, e.index());
                assertEquals(badIndex, tailer.index(), "the tailer is past the record");
                assertArrayEquals(bad, e.bytes());
                assertTrue(e.getMessage().contains(Long.toHexString(badIndex))
                        && e.getMessage().contains(CorruptRecords.MALFORMED_VARINT), e.getMessage());
                assertEquals(4, tailer.next().sequence(), "reading goes on after it");
                assertEquals(5, tailer.next().sequence());
                assertNull(tailer.next());
            }
        }
    }

    @Test
    void quarantine_writesOneLinePerRecord_countsIt_andNotAgainWhenMetAfterAReopen() throws Exception {
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            KafkaShipperTest.appendEvents(log, "a", 0, 2);
        }
        byte[] bad = CorruptRecords.badSequence("a", 2);
        long badIndex = CorruptRecords.append(dir, bad);
        PrometheusRegistry registry = new PrometheusRegistry();
        AgentMetrics metrics = new AgentMetrics(registry);
        for (int reopen = 0; reopen < 2; reopen++) {
            try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, SpoolOptions.defaults(), new AtomTable(), metrics)) {
                List<CorruptRecordException> met = new ArrayList<>();
                SpoolScan.read(log, e -> { }, met::add);
                assertEquals(1, met.size());
                assertEquals(reopen == 0, log.quarantine(met.get(0)), "set aside the first time only");
                assertFalse(log.quarantine(met.get(0)), "met again in the same run");
                assertEquals(1, log.quarantined());
            }
        }
        assertEquals(1, Shipped.metric(registry, AgentMetricNames.SPOOL_QUARANTINED));
        List<String> lines = Files.readAllLines(dir.resolve("quarantine.jsonl"));
        assertEquals(1, lines.size(), lines.toString());
        String line = lines.get(0);
        assertTrue(line.startsWith("{\"index\":" + badIndex + ",\"index_hex\":\"" + Long.toHexString(badIndex) + "\","),
                line);
        assertTrue(line.contains(CorruptRecords.MALFORMED_VARINT), line);
        String base64 = line.substring(line.indexOf("\"bytes_base64\":\"") + 16, line.lastIndexOf('"'));
        assertArrayEquals(bad, Base64.getDecoder().decode(base64), "the record's bytes, kept");
    }

    @Test
    void scan_findsTheTransactionsLeftOpen_theLastEvent_andSkipsCorruptRecords() {
        List<HistoryEvent> seen = new ArrayList<>();
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            // Events.event: even sequences invoke, odd ones complete; 0..4 leaves txn 2 (process 2) open.
            KafkaShipperTest.appendEvents(log, "a", 0, 5);
        }
        CorruptRecords.append(dir, CorruptRecords.badSequence("a", 5));
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            SpoolScan.Summary s = SpoolScan.read(log, seen::add, e -> { });
            assertEquals(5, s.events());
            assertEquals(1, s.corrupt());
            assertEquals(0, s.first().sequence());
            assertEquals(4, s.last().sequence());
            assertEquals(2, s.maxProcess());
            assertEquals(Map.of(2L, Events.event("a", 4).op().value()), s.open());
            assertTrue(s.open().get(2L).get(1) instanceof MicroOp.Read r && r.values() == null);
        }
        assertEquals(5, seen.size());
    }
}
