package io.isowatch.agent.workload;

import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.RegisterOptions;
import io.isowatch.checker.Validity;
import io.isowatch.checker.Verdict;
import io.isowatch.checker.Workload;
import io.isowatch.history.AtomTable;

import io.isowatch.agent.client.EmbeddedStoreClient;
import io.isowatch.agent.recorder.EventLog;
import io.isowatch.agent.recorder.HistoryRecorder;
import io.isowatch.agent.recorder.InMemoryEventLog;
import io.isowatch.agent.store.EmbeddedStore;
import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadRunnerTest {

    private static EmbeddedStore store(double failRate, double lostAckRate) {
        return new EmbeddedStore(StoreOptions.of(IsolationLevel.SNAPSHOT_ISOLATION).toBuilder()
                .faults(failRate, lostAckRate, 0).build());
    }

    @Test
    void txnLimit_runsExactlyThatMany_andInfoMovesTheWorkerToANewProcess() throws Exception {
        InMemoryEventLog log = new InMemoryEventLog();
        WorkloadOptions options = WorkloadOptions.defaults().toBuilder().concurrency(4).txnLimit(3_000)
                .duration(Duration.ZERO).build();
        WorkloadResult r = new WorkloadRunner(options, EmbeddedStoreClient.factory(store(0.05, 0.05)),
                new HistoryRecorder("a", log)).run();
        assertEquals(3_000, r.txns() - r.closingReads(), "the limit counts ordinary transactions");
        assertTrue(r.closingReads() > 50, r::toString);
        assertEquals(r.txns(), r.ok() + r.fail() + r.info());
        assertTrue(r.info() > 0 && r.fail() > 0, r::toString);
        assertEquals(4 + r.info(), r.processes());

        Map<Long, OpType> last = new HashMap<>();
        for (Op op : log.ops()) {
            OpType before = last.put(op.process(), op.type());
            if (op.type() == OpType.INVOKE) {
                assertTrue(before != OpType.INFO, "process " + op.process() + " invoked again after info");
            }
            assertEquals(op.process() % 4, workerOf(op.process()), "worker w runs processes w, w + 4, ...");
        }
        // A worker whose last transaction got info may stop before its new process invokes.
        assertTrue(last.size() >= r.info() && last.size() <= r.processes(), last.size() + " processes invoked");
        assertEquals(r.info(), last.values().stream().filter(t -> t == OpType.INFO).count());
    }

    @Test
    void closingReads_listAppend_everyAppendIsReadAfterItsWritersComplete_andTheHistoryIsValid() throws Exception {
        InMemoryEventLog log = new InMemoryEventLog();
        WorkloadOptions options = WorkloadOptions.defaults().toBuilder().concurrency(4).txnLimit(2_000).keyCount(3)
                .maxWritesPerKey(5).duration(Duration.ZERO).seed(11).build();
        WorkloadResult r = new WorkloadRunner(options, EmbeddedStoreClient.factory(strictStore()),
                new HistoryRecorder("a", log)).run();
        Closing closing = Closing.of(log.ops());
        // The strict store aborts some conflicting writers (fail), never a read-only transaction.
        assertEquals(0, r.info(), r::toString);
        assertTrue(closing.keysWritten() > 200, "keys retired and closed: " + closing.keysWritten());
        assertEquals(closing.keysWritten(), r.closingReads(), "one closing read per key written");
        assertEquals(List.of(), closing.unreadAppends(), "appends no ok read saw");
        assertEquals(List.of(), closing.keysWithoutAReadAfterTheirWriters(), "keys not read after their last writer");
        assertEquals(Validity.TRUE, check(log.ops(), Workload.LIST_APPEND).valid());
    }

    @Test
    void closingReads_rwRegister_everyKeyIsReadAfterItsLastWriteCompletes_andTheHistoryIsValid() throws Exception {
        InMemoryEventLog log = new InMemoryEventLog();
        WorkloadOptions options = WorkloadOptions.defaults().toBuilder().workload(Workload.RW_REGISTER).concurrency(4)
                .txnLimit(2_000).keyCount(3).maxWritesPerKey(5).duration(Duration.ZERO).seed(12).build();
        WorkloadResult r = new WorkloadRunner(options, EmbeddedStoreClient.factory(strictStore()),
                new HistoryRecorder("a", log)).run();
        Closing closing = Closing.of(log.ops());
        assertTrue(closing.keysWritten() > 200, "keys retired and closed: " + closing.keysWritten());
        assertEquals(closing.keysWritten(), r.closingReads(), "one closing read per key written");
        assertEquals(List.of(), closing.keysWithoutAReadAfterTheirWriters(), "keys not read after their last writer");
        assertEquals(Validity.TRUE, check(log.ops(), Workload.RW_REGISTER).valid());
    }

    @Test
    void closingReads_off_leaveAppendsUnread_soTheTestsAboveCanFail() throws Exception {
        InMemoryEventLog log = new InMemoryEventLog();
        WorkloadOptions options = WorkloadOptions.defaults().toBuilder().concurrency(4).txnLimit(2_000).keyCount(3)
                .maxWritesPerKey(5).duration(Duration.ZERO).seed(11).closingReads(false).build();
        WorkloadResult r = new WorkloadRunner(options, EmbeddedStoreClient.factory(strictStore()),
                new HistoryRecorder("a", log)).run();
        assertEquals(0, r.closingReads());
        assertEquals(2_000, r.txns());
        assertFalse(Closing.of(log.ops()).unreadAppends().isEmpty());
    }

    @Test
    void closingReads_atTheEndOfATimedRunStoppedEarly_closeEveryKeyWritten() throws Exception {
        InMemoryEventLog log = new InMemoryEventLog();
        WorkloadOptions options = WorkloadOptions.defaults().toBuilder().concurrency(3).duration(Duration.ofSeconds(30))
                .rate(2_000).seed(13).build();
        WorkloadRunner runner = new WorkloadRunner(options, EmbeddedStoreClient.factory(strictStore()),
                new HistoryRecorder("a", log));
        Thread stopper = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            runner.stop();
        });
        stopper.start();
        WorkloadResult r = runner.run();
        stopper.join();
        Closing closing = Closing.of(log.ops());
        assertTrue(r.elapsed().toSeconds() < 10, r::toString);
        assertEquals(closing.keysWritten(), r.closingReads());
        assertEquals(List.of(), closing.unreadAppends());
        assertEquals(List.of(), closing.keysWithoutAReadAfterTheirWriters());
    }

    private static EmbeddedStore strictStore() {
        return new EmbeddedStore(StoreOptions.of(IsolationLevel.STRICT_SERIALIZABLE));
    }

    private static Verdict check(List<Op> history, Workload workload) {
        CheckerOptions options = workload == Workload.RW_REGISTER
                ? CheckerOptions.defaults().toBuilder().registers(RegisterOptions.NONE)
                        .build() : CheckerOptions.defaults();
        IncrementalChecker checker = new IncrementalChecker(options, new AtomTable());
        history.forEach(checker::accept);
        return checker.finish();
    }

    /** What a recorded history says about its closing reads, worked out from the events alone. */
    private record Closing(Map<Long, Long> lastWriterCompletion, Map<Long, List<Long>> okReadsAfter,
                           List<String> unreadAppends) {

        static Closing of(List<Op> history) {
            Map<Long, Op> open = new HashMap<>();
            Map<Long, Long> lastWriterCompletion = new HashMap<>();
            Map<Long, List<Long>> okSingleReadInvokes = new HashMap<>();
            Map<Long, Set<Long>> okAppended = new HashMap<>();
            Map<Long, Set<Long>> okRead = new HashMap<>();
            for (Op op : history) {
                if (op.type() == OpType.INVOKE) {
                    open.put(op.process(), op);
                    continue;
                }
                Op invoke = open.remove(op.process());
                for (MicroOp m : invoke.value()) {
                    if (!(m instanceof MicroOp.Read)) {
                        lastWriterCompletion.merge(m.key(), op.index(), Math::max);
                    }
                }
                if (op.type() != OpType.OK) {
                    continue;
                }
                if (op.value().size() == 1 && op.value().get(0) instanceof MicroOp.Read r) {
                    okSingleReadInvokes.computeIfAbsent(r.key(), k -> new java.util.ArrayList<>()).add(invoke.index());
                }
                for (MicroOp m : op.value()) {
                    if (m instanceof MicroOp.Append a) {
                        okAppended.computeIfAbsent(a.key(), k -> new HashSet<>()).add(a.value());
                    } else if (m instanceof MicroOp.Read r && r.values() != null) {
                        for (long v : r.values()) {
                            okRead.computeIfAbsent(r.key(), k -> new HashSet<>()).add(v);
                        }
                    }
                }
            }
            List<String> unread = new java.util.ArrayList<>();
            okAppended.forEach((key, values) -> values.forEach(v -> {
                if (!okRead.getOrDefault(key, Set.of()).contains(v)) {
                    unread.add(key + ":" + v);
                }
            }));
            return new Closing(lastWriterCompletion, okSingleReadInvokes, unread);
        }

        long keysWritten() {
            return lastWriterCompletion.size();
        }

        /** Keys with no ok transaction of one read of the key invoked after every writer of it completed. */
        List<Long> keysWithoutAReadAfterTheirWriters() {
            return lastWriterCompletion.entrySet().stream()
                    .filter(e -> okReadsAfter.getOrDefault(e.getKey(), List.of()).stream().noneMatch(i -> i > e.getValue()))
                    .map(Map.Entry::getKey).sorted().toList();
        }
    }

    private static long workerOf(long process) {
        return process % 4;
    }

    @Test
    void rate_limitsTransactionsPerSecond() throws Exception {
        WorkloadOptions options = WorkloadOptions.defaults().toBuilder().concurrency(4).rate(2_000)
                .duration(Duration.ofSeconds(1)).build();
        WorkloadResult r = new WorkloadRunner(options, EmbeddedStoreClient.factory(store(0, 0)),
                new HistoryRecorder("a", new InMemoryEventLog())).run();
        // What this machine manages unlimited, now: a busy machine may not reach 2,000 in a second,
        // and that is no fault of the limiter.
        WorkloadResult unlimited = new WorkloadRunner(options.toBuilder().rate(0)
                .build(), EmbeddedStoreClient.factory(store(0, 0)),
                new HistoryRecorder("a", new InMemoryEventLog())).run();
        long floor = Math.min(1_500, unlimited.txns() * 3 / 4);
        assertTrue(r.txns() > floor && r.txns() < 2_300, "about 2,000 transactions (at least " + floor
                + ", this machine running " + unlimited.txns() + " unlimited): " + r.txns());
    }

    @Test
    void progress_isReportedEveryIntervalWithTheBacklog_andOnceMoreAtTheEnd() throws Exception {
        List<WorkloadProgress> reports = new CopyOnWriteArrayList<>();
        WorkloadOptions options = WorkloadOptions.defaults().toBuilder().concurrency(2).rate(5_000)
                .duration(Duration.ofMillis(1_050)).build();
        new WorkloadRunner(options, EmbeddedStoreClient.factory(store(0, 0)), new HistoryRecorder("a",
                new InMemoryEventLog())).onProgress(reports::add, Duration.ofMillis(200), () -> 42).run();
        assertTrue(reports.size() >= 5 && reports.size() <= 7, "every 200 ms for 1 s, then once more: " + reports);
        WorkloadProgress before = reports.get(1);
        WorkloadProgress middle = reports.get(2);
        assertEquals(42, middle.backlog());
        assertFalse(middle.finished());
        // The rate since the previous report, whatever this machine manages today (a busy one fell
        // to 2,800 of the 5,000 asked), and never above what was asked by more than a burst.
        double seconds = (middle.elapsed().toNanos() - before.elapsed().toNanos()) / 1e9;
        assertEquals((middle.txns() - before.txns()) / seconds, middle.txnPerSecond(), 1e-6 * middle.txnPerSecond(),
                middle::toString);
        assertTrue(middle.txnPerSecond() > 0 && middle.txnPerSecond() < 7_000, middle::toString);
        WorkloadProgress end = reports.get(reports.size() - 1);
        assertTrue(end.finished());
        assertEquals(end.ok() + end.fail() + end.info(), end.txns());
    }

    @Test
    void firstProcessAndFirstKey_offsetTheIds() throws Exception {
        InMemoryEventLog log = new InMemoryEventLog();
        WorkloadOptions options = WorkloadOptions.defaults().toBuilder().concurrency(2).txnLimit(50)
                .firstKey(1_000_000).build();
        new WorkloadRunner(options, EmbeddedStoreClient.factory(store(0, 0)), new HistoryRecorder("a", log))
                .firstProcess(500).run();
        for (Op op : log.ops()) {
            assertTrue(op.process() == 500 || op.process() == 501, "process " + op.process());
            for (MicroOp m : op.value()) {
                assertTrue(m.key() >= 1_000_000, "key " + m.key());
            }
        }
    }

    @Test
    void recorderFailure_stopsTheRunAndIsRethrown() {
        EventLog broken = new EventLog() {
            private int appended;

            @Override
            public synchronized void append(HistoryEvent event) {
                if (++appended > 100) {
                    throw new IllegalStateException("disk full");
                }
            }

            @Override
            public void close() {
            }
        };
        WorkloadOptions options = WorkloadOptions.defaults().toBuilder().concurrency(4)
                .duration(Duration.ofSeconds(30)).build();
        WorkloadRunner runner = new WorkloadRunner(options, EmbeddedStoreClient.factory(store(0, 0)),
                new HistoryRecorder("a", broken));
        IllegalStateException e = assertThrows(IllegalStateException.class, runner::run);
        assertTrue(e.getMessage().contains("disk full"), e.getMessage());
    }

    @Test
    void generator_valuesAreUniquePerKey_andKeysRetireAfterMaxWrites() {
        WorkloadOptions options = WorkloadOptions.defaults().toBuilder().keyCount(3).maxWritesPerKey(5)
                .readProbability(0.3).txnLength(1, 6).seed(3).build();
        TransactionGenerator generator = new TransactionGenerator(options);
        Map<Long, Set<Long>> written = new HashMap<>();
        int reads = 0;
        int total = 0;
        for (int i = 0; i < 2_000; i++) {
            List<MicroOp> txn = generator.next();
            assertTrue(txn.size() >= 1 && txn.size() <= 6);
            for (MicroOp m : txn) {
                total++;
                if (m instanceof MicroOp.Append a) {
                    assertTrue(written.computeIfAbsent(a.key(), k -> new HashSet<>()).add(a.value()),
                            "value " + a.value() + " appended to key " + a.key() + " twice");
                } else {
                    assertEquals(null, ((MicroOp.Read) m).values());
                    reads++;
                }
            }
        }
        assertTrue(written.size() > 100, "keys retire and fresh ones follow: " + written.size());
        for (Set<Long> values : written.values()) {
            assertTrue(values.size() <= 5, "at most 5 writes per key: " + values);
        }
        assertTrue(reads > total * 0.2 && reads < total * 0.4, reads + " of " + total);
    }

    @Test
    void generator_rwRegister_writesRegisters() {
        TransactionGenerator generator = new TransactionGenerator(WorkloadOptions.defaults()
                .toBuilder().workload(Workload.RW_REGISTER).readProbability(0).build());
        for (MicroOp m : generator.next()) {
            assertTrue(m instanceof MicroOp.Write, m::toString);
        }
    }
}
