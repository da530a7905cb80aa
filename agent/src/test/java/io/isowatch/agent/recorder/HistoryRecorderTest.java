package io.isowatch.agent.recorder;

import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Validity;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HistoryRecorderTest {

    private static final List<MicroOp> TXN = List.of(new MicroOp.Append(1, 10), new MicroOp.Read(2, null));
    private static final List<MicroOp> DONE = List.of(new MicroOp.Append(1, 10), new MicroOp.Read(2, new long[] {5}));

    private final InMemoryEventLog log = new InMemoryEventLog();
    private final AtomicLong clock = new AtomicLong(1_000);
    private final HistoryRecorder recorder = HistoryRecorder.builder("agent-a", log).clock(clock::get).build();

    @Test
    void events_carryAgentIdDenseSequenceIndexAndTimeSinceStart() {
        recorder.invoke(0, TXN);
        clock.addAndGet(250);
        recorder.ok(0, DONE);
        clock.addAndGet(50);
        recorder.invoke(0, TXN);
        recorder.fail(0);

        List<HistoryEvent> events = log.events();
        assertEquals(4, events.size());
        for (int i = 0; i < events.size(); i++) {
            assertEquals("agent-a", events.get(i).source());
            assertEquals(i, events.get(i).sequence());
            assertEquals(i, events.get(i).op().index());
        }
        assertEquals(List.of(0L, 250L, 300L, 300L), events.stream().map(e -> e.op().time()).toList());
        assertEquals(List.of(OpType.INVOKE, OpType.OK, OpType.INVOKE, OpType.FAIL),
                events.stream().map(e -> e.op().type()).toList());
        assertEquals(4, recorder.eventsRecorded());
    }

    @Test
    void completions_okCarriesReadResults_failAndInfoRepeatTheInvocation() {
        recorder.invoke(0, TXN);
        recorder.ok(0, DONE);
        recorder.invoke(0, TXN);
        recorder.fail(0);
        recorder.invoke(1, TXN);
        recorder.info(1);
        List<Op> ops = log.ops();
        assertArrayEquals(new long[] {5}, ((MicroOp.Read) ops.get(1).value().get(1)).values());
        assertNull(((MicroOp.Read) ops.get(3).value().get(1)).values());
        assertEquals(TXN, ops.get(5).value());
        assertEquals(1, ops.get(5).process());
    }

    @Test
    void completeLeftOpen_recordsInfoWithTheInvokedOps_andRetiresTheProcesses() {
        HistoryRecorder resumed = HistoryRecorder.builder("agent-a", log).clock(clock::get).firstSequence(10).build();
        resumed.completeLeftOpen(Map.of(7L, TXN, 3L, List.of(new MicroOp.Write(4, 1))));
        List<HistoryEvent> events = log.events();
        assertEquals(List.of(10L, 11L), events.stream().map(HistoryEvent::sequence).toList());
        assertTrue(events.stream().allMatch(e -> e.op().type() == OpType.INFO));
        Map<Long, List<MicroOp>> byProcess = new HashMap<>();
        events.forEach(e -> byProcess.put(e.op().process(), e.op().value()));
        assertEquals(Map.of(7L, TXN, 3L, List.of(new MicroOp.Write(4, 1))), byProcess);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> resumed.invoke(7, TXN));
        assertTrue(e.getMessage().contains("must never invoke again"), e.getMessage());
        resumed.invoke(8, TXN); // a fresh process is fine
        assertEquals(1, resumed.openTransactions());
    }

    @Test
    void firstSequence_continuesAnEarlierRun() {
        HistoryRecorder resumed = HistoryRecorder.builder("agent-a", log).firstSequence(42).build();
        resumed.invoke(3, TXN);
        assertEquals(42, log.events().get(0).sequence());
        assertEquals(42, log.events().get(0).op().index());
    }

    @Test
    void pairing_completionWithoutInvocation_isRejectedAndNothingIsLogged() {
        assertThrows(IllegalStateException.class, () -> recorder.ok(0, DONE));
        assertThrows(IllegalStateException.class, () -> recorder.fail(0));
        assertThrows(IllegalStateException.class, () -> recorder.info(0));
        assertEquals(0, log.size());
    }

    @Test
    void pairing_secondInvocationWhileOpen_isRejected() {
        recorder.invoke(0, TXN);
        assertThrows(IllegalStateException.class, () -> recorder.invoke(0, TXN));
        assertEquals(1, log.size());
        assertEquals(1, recorder.openTransactions());
    }

    @Test
    void pairing_completionOfADifferentLength_isRejected() {
        recorder.invoke(0, TXN);
        assertThrows(IllegalArgumentException.class, () -> recorder.ok(0, List.of(new MicroOp.Append(1, 10))));
        recorder.ok(0, DONE);
        assertEquals(2, log.size());
    }

    @Test
    void info_retiresTheProcess_failDoesNot() {
        recorder.invoke(0, TXN);
        recorder.fail(0);
        recorder.invoke(0, TXN);
        recorder.info(0);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> recorder.invoke(0, TXN));
        assertTrue(e.getMessage().contains("new process"), e.getMessage());
        recorder.invoke(10, TXN);
        assertEquals(5, log.size());
    }

    @Test
    void manyThreads_sequenceIsDenseAndInLogOrder_andEachProcessAlternatesInvokeAndCompletion() throws Exception {
        int threads = 8;
        int perThread = 5_000;
        HistoryRecorder shared = new HistoryRecorder("agent-b", log);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            int worker = w;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                long process = worker;
                for (int i = 0; i < perThread; i++) {
                    long value = (long) worker * perThread + i;
                    List<MicroOp> txn = List.of(new MicroOp.Append(worker, value));
                    shared.invoke(process, txn);
                    switch (i % 10) {
                        case 7 -> shared.fail(process);
                        case 9 -> {
                            shared.info(process);
                            process += threads;
                        }
                        default -> shared.ok(process, txn);
                    }
                }
            });
            workers.add(t);
            t.start();
        }
        start.countDown();
        for (Thread t : workers) {
            t.join();
        }
        List<HistoryEvent> events = log.events();
        assertEquals(2L * threads * perThread, events.size());
        Map<Long, OpType> last = new HashMap<>();
        long previousTime = -1;
        for (int i = 0; i < events.size(); i++) {
            HistoryEvent e = events.get(i);
            assertEquals(i, e.sequence(), "dense and in log order");
            assertTrue(e.op().time() >= previousTime, "time never goes back along the sequence");
            previousTime = e.op().time();
            OpType before = last.put(e.op().process(), e.op().type());
            if (e.op().type() == OpType.INVOKE) {
                assertTrue(before == null || before == OpType.OK || before == OpType.FAIL,
                        "process " + e.op().process() + " invoked after " + before);
            } else {
                assertEquals(OpType.INVOKE, before);
            }
        }
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        events.forEach(e -> checker.accept(e.op()));
        assertEquals(Validity.TRUE, checker.finish().valid());
    }

    @Test
    void retireKey_waitsForAWriterInFlightOnAnotherThread_thenRecordsTheRead() throws Exception {
        recorder.invoke(0, List.of(new MicroOp.Append(1, 10)));
        recorder.invoke(1, List.of(new MicroOp.Read(1, null)));  // a reader of the key is no reason to wait
        assertEquals(1, recorder.openWriters(1));
        assertEquals(0, recorder.openWriters(2));
        CountDownLatch readerCalled = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicReference<OpType> outcome = new java.util.concurrent.atomic.AtomicReference<>();
        Thread closer = new Thread(() -> {
            try {
                outcome.set(recorder.retireKey(7, 1, key -> {
                    readerCalled.countDown();
                    return new long[] {10};
                }));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        closer.start();
        assertTrue(!readerCalled.await(200, java.util.concurrent.TimeUnit.MILLISECONDS), "read while a writer is open");
        assertEquals(2, log.size(), "nothing recorded while waiting");
        recorder.ok(0, List.of(new MicroOp.Append(1, 10)));
        closer.join(5_000);
        assertEquals(OpType.OK, outcome.get());
        List<Op> ops = log.ops();
        assertEquals(5, ops.size());
        Op invoke = ops.get(3);
        Op ok = ops.get(4);
        assertEquals(OpType.INVOKE, invoke.type());
        assertEquals(7, invoke.process());
        assertEquals(List.of(new MicroOp.Read(1, null)), invoke.value());
        assertEquals(OpType.OK, ok.type());
        assertArrayEquals(new long[] {10}, ((MicroOp.Read) ok.value().get(0)).values());
        assertEquals(1, recorder.openTransactions(), "the reader of process 1 is still open");
    }

    @Test
    void retireKey_timesOut_namingTheKeyAndThePendingProcesses_andRecordsNothing() {
        recorder.invoke(3, List.of(new MicroOp.Write(5, 1)));
        recorder.invoke(4, List.of(new MicroOp.Read(9, null), new MicroOp.Write(5, 2)));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> recorder.retireKey(8, 5, java.time.Duration.ofMillis(50), key -> new long[] {1}));
        assertEquals("key 5 still has writers open after PT0.05S: processes [3, 4]; complete their transactions "
                + "(ok, fail or info) before retiring the key, or wait longer", e.getMessage());
        assertEquals(2, log.size());
        assertEquals(2, recorder.openTransactions());
    }

    @Test
    void retireKey_readerFailures_areRecordedAsFailOrInfo_andInfoRetiresTheProcess() throws Exception {
        assertEquals(OpType.FAIL, recorder.retireKey(0, 1, key -> {
            throw new io.isowatch.agent.client.DefinitelyAbortedException("serialization failure");
        }));
        assertEquals(OpType.INFO, recorder.retireKey(0, 2, key -> {
            throw new io.isowatch.agent.client.IndeterminateException("connection lost");
        }));
        assertThrows(IllegalStateException.class, () -> recorder.retireKey(0, 3, key -> new long[0]));
        IllegalArgumentException bug = assertThrows(IllegalArgumentException.class, () -> recorder.retireKey(1, 3, key -> {
            throw new IllegalArgumentException("driver bug");
        }));
        assertEquals("driver bug", bug.getMessage());
        assertEquals(List.of(OpType.INVOKE, OpType.FAIL, OpType.INVOKE, OpType.INFO, OpType.INVOKE, OpType.INFO),
                log.ops().stream().map(Op::type).toList());
        assertEquals(0, recorder.openTransactions());
    }

    @Test
    void retireKey_onAProcessWithItsOwnTransactionOpen_isRefused() {
        recorder.invoke(0, List.of(new MicroOp.Append(1, 10)));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> recorder.retireKey(0, 1, key -> new long[] {10}));
        assertTrue(e.getMessage().contains("process 0 cannot retire key 1"), e.getMessage());
        assertEquals(1, log.size());
    }

    @Test
    void close_closesTheLog() {
        recorder.close();
        assertThrows(IllegalStateException.class, () -> recorder.invoke(0, TXN));
    }
}
