package io.isowatch.job.operators;

import io.isowatch.checker.CheckerOptions;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.OpType;
import io.isowatch.job.CompletedTxn;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.Events;
import io.isowatch.job.serde.HistoryRecordDeserializer;
import io.isowatch.job.serde.JobTypes;
import io.isowatch.sinks.Alert;

import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import static io.isowatch.job.Events.complete;
import static io.isowatch.job.Events.invoke;
import static io.isowatch.job.Events.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What enters the checker of a history, and when: re-sent copies dropped, the agent's order
 * restored, each process held to Jepsen's protocol ({@link ProcessGate}), late events kept
 * visible, and the per-process state cleared after the dedupe retention. Observed through the
 * events the operator feeds its checker ({@link CheckTransactionsFunction#CHECKED_EVENTS}).
 */
class AdmissionTest {

    private static final long RETENTION_MS = 1_000;

    private CheckTransactionsFunction function;
    private KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> harness;

    @BeforeEach
    void open() throws Exception {
        harness = harness();
        harness.open();
    }

    private KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> harness() throws Exception {
        function = new CheckTransactionsFunction(CheckerOptions.defaults(), Duration.ZERO, Duration.ofMillis(RETENTION_MS))
                .emittingCheckedEvents();
        KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(function), new AgentHistoryKey(), Types.STRING);
        h.setup(JobTypes.ALERT.createSerializer(h.getExecutionConfig().getSerializerConfig()));
        return h;
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    private void send(HistoryEvent... events) throws Exception {
        for (HistoryEvent e : events) {
            harness.processElement(new StreamRecord<>(e, EventTime.of(e)));
        }
    }

    /** The events fed to the checker so far, in its order. */
    private List<HistoryEvent> checked() {
        var out = harness.getSideOutput(CheckTransactionsFunction.CHECKED_EVENTS);
        return out == null ? List.of() : out.stream().map(StreamRecord::getValue).collect(Collectors.toList());
    }

    private List<CompletedTxn> completed() {
        return CompletedTxn.pairs(checked());
    }

    /** Entries of the per-process state ({@link ProcessGate}) the history {@code agent} holds. */
    private int processEntries(String agent) throws Exception {
        KeyedStateBackend<String> backend = harness.getOperator().getKeyedStateBackend();
        backend.setCurrentKey(agent);
        int n = 0;
        for (MapStateDescriptor<Long, ?> d : List.of(
                new MapStateDescriptor<>(ProcessGate.PENDING_INVOCATIONS, Types.LONG, JobTypes.HISTORY_EVENT),
                new MapStateDescriptor<>(ProcessGate.PROCESS_PROGRESS, Types.LONG, JobTypes.PROCESS_PROGRESS))) {
            MapState<Long, ?> state = backend.getPartitionedState(VoidNamespace.INSTANCE,
                    VoidNamespaceSerializer.INSTANCE, d);
            for (var ignored : state.keys()) {
                n++;
            }
        }
        return n;
    }

    private List<DeadLetter> deadLetters() {
        var out = harness.getSideOutput(CheckTransactionsFunction.DEAD_LETTERS);
        return out == null ? List.of() : out.stream().map(StreamRecord::getValue).collect(Collectors.toList());
    }

    private List<HistoryEvent> lateEvents() {
        var out = harness.getSideOutput(CheckTransactionsFunction.LATE_EVENTS);
        return out == null ? List.of() : out.stream().map(StreamRecord::getValue).collect(Collectors.toList());
    }

    @Test
    void pairs_invocationWithCompletion_forOkFailAndInfo() throws Exception {
        send(invoke("a", 0, 1, 10), ok("a", 1, 1, 11),
                invoke("a", 2, 1, 12), complete(OpType.FAIL, "a", 3, 1, 13),
                invoke("a", 4, 2, 12), complete(OpType.INFO, "a", 5, 2, 14));
        assertTrue(completed().isEmpty(), "nothing leaves before the linger ends or the watermark passes");
        harness.processWatermark(100);
        List<CompletedTxn> out = completed();
        assertEquals(3, out.size());
        assertEquals(List.of(0L, 2L, 4L), out.stream().map(t -> t.invocation().sequence()).sorted().toList());
        assertEquals(List.of(OpType.OK, OpType.FAIL, OpType.INFO),
                out.stream().sorted(java.util.Comparator.comparingLong(t -> t.invocation().sequence()))
                        .map(CompletedTxn::outcome).toList());
        CompletedTxn first = out.stream().filter(t -> t.invocation().sequence() == 0).findFirst().orElseThrow();
        assertEquals(1, first.completion().sequence());
        assertEquals("a", first.source());
        assertEquals(1, first.process());
        assertTrue(deadLetters().isEmpty());
    }

    @Test
    void completionArrivingBeforeItsInvocation_withinTheBound_stillPairs() throws Exception {
        send(ok("a", 1, 1, 11), invoke("a", 0, 1, 10));
        harness.processWatermark(11);
        assertEquals(1, completed().size());
        assertEquals(0, completed().get(0).invocation().sequence());
        assertTrue(deadLetters().isEmpty());
    }

    @Test
    void dedupe_resentEvents_areDroppedAndCounted() throws Exception {
        send(invoke("a", 0, 1, 10), invoke("a", 0, 1, 10), ok("a", 1, 1, 11));
        harness.processWatermark(20);
        // re-sent after release: identified by the progress state, not reported as late
        send(invoke("a", 0, 1, 10), ok("a", 1, 1, 11));
        harness.processWatermark(30);
        assertEquals(1, completed().size());
        assertEquals(3, function.metrics().duplicates());
        assertTrue(lateEvents().isEmpty());
        assertTrue(deadLetters().isEmpty());
    }

    @Test
    void sameSequenceFromAnotherAgent_isNotADuplicate() throws Exception {
        send(invoke("a", 0, 1, 10), ok("a", 1, 1, 11), invoke("b", 0, 1, 10), ok("b", 1, 1, 11));
        harness.processWatermark(20);
        assertEquals(2, completed().size());
        assertEquals(0, function.metrics().duplicates());
    }

    @Test
    void completionWithoutInvocation_isReleasedAlone_asElleTakesIt() throws Exception {
        send(ok("a", 1, 1, 11));
        harness.processWatermark(20);
        List<CompletedTxn> out = completed();
        assertEquals(1, out.size());
        assertNull(out.get(0).invocation());
        assertEquals(1, out.get(0).completion().sequence());
        assertTrue(deadLetters().isEmpty());
        assertEquals(0, function.metrics().deadLetters());
    }

    @Test
    void doubleInvocation_dropsTheSecond_andTheFirstStillPairs() throws Exception {
        // The completion completes seq 0's transaction (append 0 to key 1), as the checker requires.
        HistoryEvent completion = Events.event("a", 2, OpType.OK, 1, 12,
                new MicroOp.Append(1, 0), new MicroOp.Read(2, new long[] {}));
        send(invoke("a", 0, 1, 10), invoke("a", 1, 1, 11), completion);
        harness.processWatermark(20);
        assertEquals(1, completed().size());
        assertEquals(0, completed().get(0).invocation().sequence());
        assertEquals(List.of(DeadLetter.Kind.DOUBLE_INVOCATION), deadLetters().stream().map(DeadLetter::kind).toList());
        assertTrue(deadLetters().get(0).error().contains("seq 0 is still pending"), deadLetters().get(0).error());
        // The dropped invocation travels as the topic's own JSON record: it reads back as itself.
        HistoryEvent dropped = new HistoryRecordDeserializer().decode(new ConsumerRecord<>("t", 0, 0, null,
                deadLetters().get(0).raw().getBytes(StandardCharsets.UTF_8))).right();
        assertEquals("a/1", dropped.source() + "/" + dropped.sequence());
        assertEquals(invoke("a", 1, 1, 11).op().value(), dropped.op().value());
    }

    @Test
    void processReusedAfterInfo_goesToDeadLetters() throws Exception {
        send(invoke("a", 0, 1, 10), complete(OpType.INFO, "a", 1, 1, 11), invoke("a", 2, 1, 12), ok("a", 3, 1, 13));
        harness.processWatermark(20);
        assertEquals(1, completed().size());
        assertEquals(List.of(DeadLetter.Kind.PROCESS_REUSED_AFTER_INFO, DeadLetter.Kind.PROCESS_REUSED_AFTER_INFO),
                deadLetters().stream().map(DeadLetter::kind).toList());
        assertTrue(deadLetters().get(1).error().contains("completed a transaction (seq 3) after an info completion"),
                deadLetters().get(1).error());
    }

    @Test
    void eventBehindTheWatermark_goesToLateEvents_andIsCounted() throws Exception {
        harness.processWatermark(50);
        HistoryEvent late = invoke("a", 0, 1, 40);
        send(late);
        harness.processWatermark(100);
        assertEquals(List.of(late), lateEvents());
        assertEquals(1, function.metrics().lateEvents());
        assertTrue(completed().isEmpty());
        assertEquals(0, processEntries("a"));
    }

    @Test
    void state_isEmpty_afterCompletionAndRetention() throws Exception {
        send(invoke("a", 0, 1, 10), invoke("a", 2, 2, 10), ok("a", 1, 1, 11));
        harness.processWatermark(11);
        assertEquals(1, completed().size());
        // process 1: progress only; process 2: pending invocation + progress
        assertEquals(3, processEntries("a"));
        send(ok("a", 3, 2, 12));
        harness.processWatermark(12);
        assertEquals(2, completed().size());
        harness.processWatermark(12 + RETENTION_MS - 1);
        assertEquals(2, processEntries("a"), "progress kept for the retention");
        harness.processWatermark(12 + RETENTION_MS + RETENTION_MS / 16);
        assertEquals(0, processEntries("a"), "all process state cleared");
        assertEquals(1, harness.numEventTimeTimers(), "no timers left but the end of input's");
    }

    @Test
    void timers_stayBounded_overManyTransactionsOfOneProcess() throws Exception {
        long seq = 0;
        for (int i = 0; i < 50; i++) {
            send(invoke("a", seq++, 1, 10 + 2L * i), ok("a", seq++, 1, 11 + 2L * i));
            harness.processWatermark(11 + 2L * i);
        }
        assertEquals(50, completed().size());
        // 50 releases over 100 ms of event time: expiry timers rounded to 1/16 of the retention (62 ms).
        // Plus the end of input's timer.
        assertTrue(harness.numEventTimeTimers() <= 4, () -> harness.numEventTimeTimers() + " timers");
        harness.processWatermark(200 + RETENTION_MS);
        assertEquals(0, processEntries("a"));
        assertEquals(1, harness.numEventTimeTimers());
    }

    @Test
    void anyArrivalOrderWithinTheBound_givesTheSamePairs() throws Exception {
        long bound = 20; // ms of allowed out-of-orderness
        for (long seed = 1; seed <= 20; seed++) {
            close();
            open();
            java.util.Random random = new java.util.Random(seed);
            List<HistoryEvent> history = new java.util.ArrayList<>();
            java.util.Set<String> expected = new java.util.HashSet<>();
            long seq = 0;
            for (int round = 0; round < 10; round++) {
                for (long p = 0; p < 4; p++) {
                    long t = round * 5L + p;
                    HistoryEvent inv = invoke("a", seq++, p, t);
                    HistoryEvent done = ok("a", seq++, p, t + 1 + random.nextInt(3));
                    history.add(inv);
                    history.add(done);
                    expected.add(inv.sequence() + "/" + done.sequence());
                }
            }
            // Deliver in an order where each event is at most `bound` ms behind the newest seen,
            // with the watermark trailing the newest time by the bound, as forBoundedOutOfOrderness does.
            java.util.Map<HistoryEvent, Long> arrival = new java.util.IdentityHashMap<>();
            for (HistoryEvent e : history) {
                arrival.put(e, EventTime.of(e) + random.nextInt((int) bound));
            }
            List<HistoryEvent> order = new java.util.ArrayList<>(history);
            order.sort(java.util.Comparator.comparingLong(arrival::get));
            long newest = Long.MIN_VALUE;
            for (HistoryEvent e : order) {
                send(e);
                newest = Math.max(newest, EventTime.of(e));
                harness.processWatermark(newest - bound - 1);
                if (random.nextInt(4) == 0) {
                    // let contiguous runs leave ahead of the watermark, at random points
                    harness.setProcessingTime(harness.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
                }
            }
            List<Long> emitted = checked().stream().map(HistoryEvent::sequence).toList();
            assertEquals(emitted.stream().sorted().toList(), emitted, "seed " + seed + ": emitted in sequence order");
            harness.processWatermark(Long.MAX_VALUE);
            java.util.Set<String> got = completed().stream()
                    .map(t -> t.invocation().sequence() + "/" + t.completion().sequence())
                    .collect(Collectors.toSet());
            assertEquals(expected, got, "seed " + seed);
            assertTrue(deadLetters().isEmpty(), "seed " + seed + ": " + deadLetters());
            assertTrue(lateEvents().isEmpty(), "seed " + seed);
            assertEquals(0, processEntries("a"), "seed " + seed);
        }
    }

    @Test
    void afterTheFirstRelease_aContiguousRunLeavesAfterTheLinger_withoutWaitingForTheWatermark() throws Exception {
        send(invoke("a", 0, 1, 10), ok("a", 1, 1, 11));
        harness.processWatermark(10);
        assertEquals(List.of(0L, 1L), sequences(checked()), "run after the first release");
        send(invoke("a", 2, 2, 1_000), invoke("a", 3, 1, 1_001), ok("a", 4, 2, 1_002));
        assertEquals(2, checked().size(), "the run lingers first");
        harness.setProcessingTime(harness.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), sequences(checked()),
                "released with the watermark still at 10");
        assertEquals(2, completed().size());
    }

    @Test
    void aHistoryFromItsFirstEvent_leavesAfterTheLinger_withoutAnyWatermark() throws Exception {
        // A burst shorter than the out-of-orderness bound, then silence: no later event would ever
        // move the watermark past these, so only the numbering can release them.
        send(ok("a", 1, 1, 11), invoke("a", 0, 1, 10), invoke("a", 2, 2, 12), ok("a", 3, 2, 13));
        harness.setProcessingTime(harness.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
        assertEquals(List.of(0L, 1L, 2L, 3L), sequences(checked()));
        assertEquals(2, completed().size());
        assertTrue(lateEvents().isEmpty());
    }

    @Test
    void aHistoryJoinedMidWay_waitsForTheWatermark() throws Exception {
        send(invoke("a", 7, 1, 10), ok("a", 8, 1, 11));
        harness.setProcessingTime(harness.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
        assertTrue(checked().isEmpty(), "events before 7 may still come");
        harness.processWatermark(10);
        assertEquals(List.of(7L, 8L), sequences(checked()));
    }

    @Test
    void aGap_holdsTheEventsAfterIt_untilTheWatermarkPassesThem() throws Exception {
        send(invoke("a", 0, 1, 10));
        harness.processWatermark(10);
        send(ok("a", 2, 2, 30), invoke("a", 3, 3, 31), ok("a", 4, 3, 32)); // seq 1 is missing
        harness.setProcessingTime(harness.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
        assertEquals(List.of(0L), sequences(checked()), "nothing leaves across the gap");
        harness.processWatermark(31);
        // 2 completes a transaction of process 2, which never invoked: it leaves alone; 3 and 4 pair.
        assertEquals(List.of(0L, 2L, 3L, 4L), sequences(checked()));
        assertTrue(deadLetters().isEmpty());
        // The contiguous rule resumes after what the watermark released...
        send(ok("a", 5, 1, 40));
        harness.setProcessingTime(harness.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
        assertEquals(List.of(0L, 2L, 3L, 4L, 5L), sequences(checked()));
        // ...and the skipped event, arriving now, is late, not released out of order.
        HistoryEvent skipped = invoke("a", 1, 9, 20);
        send(skipped);
        assertEquals(List.of(skipped), lateEvents());
        assertEquals(0, function.metrics().duplicates());
    }

    @Test
    void snapshotAndRestore_keepsPendingInvocationBufferProgressAndNextSequence() throws Exception {
        send(invoke("a", 0, 1, 10), ok("a", 1, 1, 30), invoke("a", 3, 2, 35));
        harness.processWatermark(20);
        var snapshot = harness.snapshot(1, 1);
        List<HistoryEvent> beforeRestore = checked();
        assertEquals(List.of(0L, 1L), sequences(beforeRestore),
                "the invocation leaves as the watermark passes it, its completion with it (contiguous); 3 waits for 2");
        harness.close();

        harness = harness();
        harness.initializeState(snapshot);
        harness.open();
        // Re-sent after the restart: 0 and 1 had been released (known from the restored progress
        // alone), 3 was still buffered; all three are duplicates.
        send(ok("a", 1, 1, 30), invoke("a", 0, 1, 10), invoke("a", 3, 2, 35));
        assertEquals(3, function.metrics().duplicates());
        // The restored next sequence lets 2 and the buffered 3 leave without the watermark.
        send(invoke("a", 2, 3, 32));
        harness.setProcessingTime(harness.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
        assertEquals(List.of(2L, 3L), sequences(checked()));
        List<HistoryEvent> all = new java.util.ArrayList<>(beforeRestore);
        all.addAll(checked());
        List<CompletedTxn> pairs = CompletedTxn.pairs(all);
        assertEquals(1, pairs.size());
        assertEquals(0, pairs.get(0).invocation().sequence());
        assertTrue(lateEvents().isEmpty());
        assertTrue(deadLetters().isEmpty());
    }

    @Test
    void restore_resumesAfterAnEventTheProtocolDropped() throws Exception {
        // seq 1 invokes again while seq 0 is pending: dropped, so no checked batch holds it, and
        // only the kept next sequence says the numbering stands at 2.
        send(invoke("a", 0, 1, 10), invoke("a", 1, 1, 11));
        harness.setProcessingTime(harness.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
        assertEquals(List.of(0L), sequences(checked()));
        assertEquals(List.of(DeadLetter.Kind.DOUBLE_INVOCATION), deadLetters().stream().map(DeadLetter::kind).toList());
        var snapshot = harness.snapshot(1, 1);
        harness.close();

        harness = harness();
        harness.initializeState(snapshot);
        harness.open();
        send(invoke("a", 2, 2, 12));
        harness.setProcessingTime(harness.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
        assertEquals(List.of(2L), sequences(checked()), "contiguous after the dropped 1, without the watermark");
    }

    private static List<Long> sequences(List<HistoryEvent> events) {
        return events.stream().map(HistoryEvent::sequence).toList();
    }
}
