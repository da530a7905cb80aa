package io.isowatch.agent.transport;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpoolExportTest {

    @TempDir
    Path dir;

    @Test
    void export_writesEveryEventAsAJepsenLine_skipsCorruptRecords_andChangesNothingInTheSpool() throws IOException {
        List<HistoryEvent> events = new ArrayList<>();
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            events.addAll(KafkaShipperTest.appendEvents(log, "a", 0, 500));
        }
        CorruptRecords.append(dir, CorruptRecords.badSequence("a", 500));
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            events.addAll(KafkaShipperTest.appendEvents(log, "a", 500, 1_000));
        }
        Map<String, Long> before = listing();

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<CorruptRecordException> skipped = new ArrayList<>();
        SpoolScan.Summary s = SpoolExport.export(dir, out, skipped::add);

        assertEquals(1_000, s.events());
        assertEquals(1, s.corrupt());
        assertEquals(1, skipped.size());
        List<Op> ops = new ArrayList<>();
        try (HistoryReader reader = HistoryReader.open("export.jsonl", new ByteArrayInputStream(out.toByteArray()),
                new AtomTable())) {
            for (Op op = reader.next(); op != null; op = reader.next()) {
                ops.add(new Op(op.index(), op.time(), op.type(), op.process(), op.value())); // without its line
            }
        }
        assertEquals(events.stream().map(HistoryEvent::op).toList(), ops, "every event, in order, as written");
        assertEquals(before, listing(), "no file added, deleted or grown in the spool");
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            assertEquals(1_001, log.backlog(), "no record appended, nothing marked shipped");
        }
        assertFalse(Files.exists(dir.resolve("quarantine.jsonl")), "export leaves the quarantine to the agent");
    }

    @Test
    void export_ofADirectoryThatIsNoSpool_namesTheFlag(@TempDir Path empty) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SpoolExport.export(empty, new ByteArrayOutputStream(), r -> { }));
        assertTrue(e.getMessage().contains("not a spool") && e.getMessage().contains("--spool-dir"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> SpoolExport.export(empty.resolve("missing"), new ByteArrayOutputStream(), r -> { }));
        assertFalse(Files.exists(empty.resolve("missing")), "not created");
    }

    /** Each file's name and size: no file added or deleted, none grown. */
    private Map<String, Long> listing() throws IOException {
        Map<String, Long> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(dir)) {
            for (Path p : list.toList()) {
                files.put(p.getFileName().toString(), Files.size(p));
            }
        }
        return files;
    }
}
