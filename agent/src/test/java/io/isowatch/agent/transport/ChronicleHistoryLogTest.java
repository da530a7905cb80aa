package io.isowatch.agent.transport;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.history.codec.BinaryEventCodec;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.RollCycles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChronicleHistoryLogTest {

    private static final long HOUR_NANOS = Duration.ofHours(1).toNanos();

    @TempDir
    Path dir;

    private static SpoolOptions syncEveryAck() {
        return SpoolOptions.defaults().toBuilder().positionSyncInterval(Duration.ZERO).build();
    }

    private static List<HistoryEvent> drain(SpoolTailer tailer) {
        List<HistoryEvent> events = new ArrayList<>();
        for (HistoryEvent e = tailer.next(); e != null; e = tailer.next()) {
            events.add(e);
        }
        return events;
    }

    @Test
    void append_thenTail_readsEveryEventInOrder() {
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            List<HistoryEvent> written = new ArrayList<>();
            long previous = ChronicleHistoryLog.NO_INDEX;
            for (long seq = 0; seq < 1000; seq++) {
                HistoryEvent e = Events.event("a", seq);
                long index = log.appendAndGetIndex(e);
                assertTrue(index > previous);
                previous = index;
                written.add(e);
            }
            try (SpoolTailer tailer = log.tailer(ChronicleHistoryLog.NO_INDEX)) {
                assertEquals(written, drain(tailer));
                assertEquals(previous, tailer.index());
                assertNull(tailer.next(), "nothing new yet");
                log.append(Events.event("a", 1000));
                assertEquals(Events.event("a", 1000), tailer.next(), "a tailer sees later appends");
            }
            assertEquals(1001, log.backlog());
            assertEquals(Events.event("a", 1000), log.lastEvent());
        }
    }

    @Test
    void append_fromManyThreads_losesNothingAndKeepsEachThreadsOrder() throws InterruptedException {
        int threads = 4;
        int perThread = 5_000;
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String agent = "t" + t;
                Thread w = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    for (long seq = 0; seq < perThread; seq++) {
                        log.append(Events.event(agent, seq));
                    }
                });
                w.start();
                workers.add(w);
            }
            start.countDown();
            for (Thread w : workers) {
                w.join();
            }
            Map<String, Long> next = new HashMap<>();
            try (SpoolTailer tailer = log.tailer(ChronicleHistoryLog.NO_INDEX)) {
                for (HistoryEvent e : drain(tailer)) {
                    long expected = next.getOrDefault(e.source(), 0L);
                    assertEquals(expected, e.sequence(), "order of " + e.source());
                    assertEquals(Events.event(e.source(), e.sequence()), e);
                    next.put(e.source(), expected + 1);
                }
            }
            for (int t = 0; t < threads; t++) {
                assertEquals(perThread, next.get("t" + t));
            }
            assertEquals((long) threads * perThread, log.backlog());
        }
    }

    @Test
    void acknowledge_reducesBacklog_andThePositionSurvivesReopening() {
        long ackIndex;
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, syncEveryAck(), new AtomTable(), null)) {
            List<Long> indices = new ArrayList<>();
            for (long seq = 0; seq < 100; seq++) {
                indices.add(log.appendAndGetIndex(Events.event("a", seq)));
            }
            ackIndex = indices.get(39);
            log.acknowledge(ackIndex);
            assertEquals(60, log.backlog());
            log.acknowledge(indices.get(10));
            assertEquals(60, log.backlog(), "an older acknowledgement changes nothing");
            assertThrows(IllegalArgumentException.class, () -> log.acknowledge(indices.get(99) + 1));
        }
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, syncEveryAck(), new AtomTable(), null)) {
            assertEquals(ackIndex, log.acknowledgedIndex());
            assertEquals(60, log.backlog());
            try (SpoolTailer tailer = log.tailerFromAcknowledged()) {
                List<HistoryEvent> rest = drain(tailer);
                assertEquals(60, rest.size());
                assertEquals(40, rest.get(0).sequence());
            }
        }
    }

    @Test
    void acknowledge_withinTheSyncInterval_isPersistedOnClose() {
        SpoolOptions lazy = SpoolOptions.defaults().toBuilder().positionSyncInterval(Duration.ofHours(1)).build();
        long last;
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, lazy, new AtomTable(), null)) {
            log.append(Events.event("a", 0));
            last = log.appendAndGetIndex(Events.event("a", 1));
            log.acknowledge(last);
            assertTrue(Files.notExists(log.positionFile()), "not yet written");
        }
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, lazy, new AtomTable(), null)) {
            assertEquals(last, log.acknowledgedIndex());
            assertEquals(0, log.backlog());
        }
    }

    @Test
    void retention_deletesFullyShippedRollFiles_keepingTheConfiguredNumber() throws IOException {
        SetTimeProvider time = new SetTimeProvider(1_700_000_000_000L * 1_000_000L);
        SpoolOptions options = syncEveryAck().toBuilder().rollCycle(RollCycles.FAST_HOURLY).keepShippedRollFiles(1)
                .build();
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, options, new AtomTable(), null, time)) {
            List<Long> lastOfCycle = new ArrayList<>();
            long seq = 0;
            for (int cycle = 0; cycle < 5; cycle++) {
                long index = 0;
                for (int i = 0; i < 10; i++) {
                    index = log.appendAndGetIndex(Events.event("a", seq++));
                }
                lastOfCycle.add(index);
                time.advanceNanos(HOUR_NANOS);
            }
            assertEquals(5, rollFiles());
            log.acknowledge(lastOfCycle.get(1));
            assertEquals(5, rollFiles(), "cycle 0 is the one shipped file kept");
            log.acknowledge(lastOfCycle.get(3));
            assertEquals(3, rollFiles(), "cycles 0 and 1 deleted, 2 kept, 3 holds the position, 4 unshipped");
            assertEquals(10, log.backlog());
            try (SpoolTailer tailer = log.tailerFromAcknowledged()) {
                List<HistoryEvent> rest = drain(tailer);
                assertEquals(10, rest.size());
                assertEquals(40, rest.get(0).sequence());
            }
            try (SpoolTailer all = log.tailer(ChronicleHistoryLog.NO_INDEX)) {
                assertEquals(20, drain(all).get(0).sequence(), "the oldest remaining event is cycle 2's first");
            }
        }
        SpoolOptions keepNone = options.toBuilder().keepShippedRollFiles(0).build();
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, keepNone, new AtomTable(), null, time)) {
            assertEquals(2, rollFiles(), "reopening applies the tighter retention at once");
            assertEquals(10, log.backlog());
        }
    }

    private long rollFiles() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".cq4")).count();
        }
    }

    @Test
    void stringAtoms_areStoredAsText_andReadBackIntoAnyTable() {
        AtomTable atoms = new AtomTable();
        long k = atoms.ofString("user:42");
        long v = atoms.ofString("naïve \"value\"");
        HistoryEvent e = new HistoryEvent("a", 0, new Op(0, 5, OpType.OK, 1,
                List.of(new MicroOp.Append(k, v), new MicroOp.Read(k, new long[] {v, 7}))));
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, SpoolOptions.defaults(), atoms, null)) {
            log.append(e);
            AtomTable readerAtoms = new AtomTable();
            readerAtoms.ofString("something else first");
            try (SpoolTailer tailer = log.tailer(ChronicleHistoryLog.NO_INDEX)) {
                HistoryEvent back = tailer.next(new BinaryEventCodec(readerAtoms));
                MicroOp.Append a = (MicroOp.Append) back.op().value().get(0);
                assertEquals("user:42", readerAtoms.valueOf(a.key()));
                assertEquals("naïve \"value\"", readerAtoms.valueOf(a.value()));
            }
        }
    }

    @Test
    void append_afterClose_isAnError() {
        ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null);
        log.close();
        log.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> log.append(Events.event("a", 0)));
        assertTrue(e.getMessage().contains("is closed"), e.getMessage());
    }

    @Test
    void close_withATailerStillOpenInAnotherThread_closesItToo() throws Exception {
        ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null);
        log.append(Events.event("a", 0));
        SpoolTailer[] opened = new SpoolTailer[1];
        Thread reader = new Thread(() -> {
            opened[0] = log.tailer(ChronicleHistoryLog.NO_INDEX);
            opened[0].next();
        });
        reader.start();
        reader.join();
        log.close();
        assertThrows(IllegalStateException.class, () -> opened[0].next());
        opened[0].close();
    }

    @Test
    void open_withACorruptPositionFile_namesTheFileAndTheFix() throws IOException {
        Files.writeString(dir.resolve(ShippedPosition.FILE_NAME), "garbage");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ChronicleHistoryLog.open(dir, null));
        assertTrue(e.getMessage().contains(ShippedPosition.FILE_NAME) && e.getMessage().contains("delete it"),
                e.getMessage());
    }

    @Test
    void lastEvent_ofAnEmptySpool_isNull() {
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            assertNull(log.lastEvent());
            assertEquals(ChronicleHistoryLog.NO_INDEX, log.lastIndex());
            assertEquals(0, log.backlog());
        }
    }
}
