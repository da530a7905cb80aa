package io.isowatch.job.operators;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.anomaly.FindingId;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.explain.VerdictJson;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.OpType;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.job.Events;
import io.isowatch.job.HistoryVerdict;
import io.isowatch.job.serde.JobTypes;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.Release;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.runtime.state.OperatorStateHandle;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker operator with a short retention: its one checker forgets what lies more than a
 * retention back, the state holds about 1.5 retentions of batches however long the history runs,
 * and a restore taken after evictions reports each finding once and the same anomalies.
 */
class CheckTransactionsFunctionTest {

    /** Events are 1 ms apart, so a retention of 200 ms is 200 events. */
    private static final Duration RETENTION = Duration.ofMillis(200);
    private static final int WATERMARK_EVERY = 50;
    private static final CheckerOptions OPTIONS = CheckerOptions.defaults().toBuilder()
            .consistencyModels(Set.of(ConsistencyModel.STRICT_SERIALIZABLE)).build();

    @Test
    void longCorrectHistory_checkerForgets_stateStaysBounded_andSilent() throws Exception {
        List<HistoryEvent> events = history(0, 3_000);
        CheckTransactionsFunction function = new CheckTransactionsFunction(OPTIONS, RETENTION, Duration.ofMinutes(1));
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(function, null)) {
            int maxEntries = 0;
            long maxHeld = 0;
            for (int i = 0; i < events.size(); i++) {
                send(h, events, i);
                maxEntries = Math.max(maxEntries, h.numKeyedStateEntries());
                maxHeld = Math.max(maxHeld, function.heldTransactions());
            }
            // At most 1.5 retentions of batches (6) plus the waiting events (< 50) and four
            // counters, against 120 batches for the whole history.
            assertTrue(maxEntries < 70, "keyed state entries peaked at " + maxEntries);
            // A retention is 200 events, 100 transactions; forgotten every 100 events.
            assertTrue(maxHeld <= 180, "the checker held up to " + maxHeld + " transactions");
            assertTrue(function.metrics().evictions() > 25, "evictions: " + function.metrics().evictions());
            h.processWatermark(Long.MAX_VALUE);
            assertTrue(h.extractOutputValues().isEmpty(), () -> h.extractOutputValues().toString());
            String verdict = verdicts(h).get(0);
            assertTrue(verdict.contains("\"valid\":true"), verdict);
            // One checker saw every transaction, though it holds only the last ones.
            assertTrue(verdict.contains("\"txns\":" + events.size() / 2 + ","), verdict);
        }
    }

    @Test
    void stringValuedHistory_checkerIsRebuilt_toKeepOnlyTheStringsOfWhatItRetains() throws Exception {
        List<HistoryEvent> events = new ArrayList<>();
        Set<String> distinct = new HashSet<>();
        for (HistoryEvent e : history(0, 3_000)) {
            AtomTable names = new AtomTable(); // each event names its own strings, as decoded records do
            List<MicroOp> mops = new ArrayList<>();
            for (MicroOp m : e.op().value()) {
                // Keys "k7", elements "k7:3": every element appended is a string of its own.
                long key = names.ofString("k" + m.key());
                distinct.add("k" + m.key());
                if (m instanceof MicroOp.Append a) {
                    distinct.add(a.key() + ":" + a.value());
                    mops.add(new MicroOp.Append(key, names.ofString(a.key() + ":" + a.value())));
                } else {
                    long[] read = ((MicroOp.Read) m).values();
                    long[] named = read == null ? null : new long[read.length];
                    for (int i = 0; read != null && i < read.length; i++) {
                        named[i] = names.ofString(m.key() + ":" + read[i]);
                    }
                    mops.add(new MicroOp.Read(key, named));
                }
            }
            Op op = e.op();
            events.add(HistoryEvent.carrying(e.source(), e.sequence(),
                    new Op(op.index(), op.time(), op.type(), op.process(), mops), names));
        }
        CheckTransactionsFunction function = new CheckTransactionsFunction(OPTIONS, RETENTION, Duration.ofMinutes(1));
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(function, null)) {
            long peak = 0;
            for (int i = 0; i < events.size(); i++) {
                send(h, events, i);
                peak = Math.max(peak, function.stringAtoms());
            }
            // The table is rebuilt once it holds four times what the checker kept when built, and
            // at least 1,024 strings (the checker holds 200 to 300 of the 6,000 events).
            assertTrue(peak > 0 && peak < distinct.size() / 3,
                    "strings held peaked at " + peak + " of the history's " + distinct.size());
            assertTrue(function.metrics().rebuilds() > 0, "rebuilds: " + function.metrics().rebuilds());
            h.processWatermark(Long.MAX_VALUE);
            assertTrue(h.extractOutputValues().isEmpty(), () -> h.extractOutputValues().toString());
            assertTrue(verdicts(h).get(0).contains("\"valid\":true"));
        }
    }

    @Test
    void restoreAfterEvictions_reportsEachFindingOnce_andTheSameAnomalies() throws Exception {
        List<HistoryEvent> events = history(0.01, 3_000);
        List<String> uninterrupted = new ArrayList<>();
        String verdictUninterrupted;
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness()) {
            for (int i = 0; i < events.size(); i++) {
                send(h, events, i);
            }
            h.processWatermark(Long.MAX_VALUE);
            h.extractOutputValues().forEach(a -> uninterrupted.add(a.id()));
            verdictUninterrupted = verdicts(h).get(0);
        }
        assertFalse(uninterrupted.isEmpty(), () -> "stale reads make findings; verdict " + verdictUninterrupted);

        // Stop 730 events in (a dozen evictions done, 10 events after the last), resume.
        int stop = 3 * 200 + 130;
        List<String> resumed = new ArrayList<>();
        OperatorSubtaskState snapshot;
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness()) {
            for (int i = 0; i < stop; i++) {
                send(h, events, i);
            }
            snapshot = h.snapshot(1, 1);
            h.extractOutputValues().forEach(a -> resumed.add(a.id()));
        }
        String verdictResumed;
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(snapshot)) {
            for (int i = stop; i < events.size(); i++) {
                send(h, events, i);
            }
            h.processWatermark(Long.MAX_VALUE);
            h.extractOutputValues().forEach(a -> resumed.add(a.id()));
            verdictResumed = verdicts(h).get(0);
        }
        assertEquals(uninterrupted, resumed);
        assertEquals(new HashSet<>(resumed).size(), resumed.size(), "each finding alerted once");
        // The restored checker counts only what it replayed and saw since: its stats differ.
        assertEquals(withoutStats(verdictUninterrupted), withoutStats(verdictResumed));
    }

    @Test
    void contiguousEvents_areCheckedAfterTheLinger_soAlertsComeBeforeTheWatermark() throws Exception {
        List<HistoryEvent> events = history(0.01, 1_000);
        Set<String> atTheEnd = new HashSet<>();
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(null, Duration.ZERO)) {
            for (HistoryEvent e : events) {
                h.processElement(new StreamRecord<>(e, EventTime.of(e)));
            }
            h.processWatermark(Long.MAX_VALUE);
            h.extractOutputValues().forEach(a -> atTheEnd.add(a.id()));
        }
        assertFalse(atTheEnd.isEmpty(), "stale reads make findings");
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(null, Duration.ZERO)) {
            // No watermark at all: the history starts at sequence 0, so every run is contiguous.
            for (int i = 0; i < events.size(); i++) {
                h.processElement(new StreamRecord<>(events.get(i), EventTime.of(events.get(i))));
                if (i % WATERMARK_EVERY == 0) {
                    h.setProcessingTime(h.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
                }
            }
            h.setProcessingTime(h.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
            Set<String> beforeTheWatermark = new HashSet<>();
            h.extractOutputValues().forEach(a -> beforeTheWatermark.add(a.id()));
            assertEquals(atTheEnd, beforeTheWatermark, "every finding, without a watermark");
        }
    }

    /**
     * Decision 0016 end to end in the operator: a declared history with stale reads and garbage
     * elements, arriving reordered within a few positions, gets every garbage read alerted before
     * any watermark, and in all the same findings, by id, as {@code check} gives the history.
     */
    @Test
    void aDeclaredHistory_reorderedInDelivery_alertsGarbageReadsLive_andTheFindingsOfCheck() throws Exception {
        List<HistoryEvent> events = new ArrayList<>();
        int garbage = 0;
        for (HistoryEvent e : history(0.01, 2_000)) {
            Op op = e.op();
            if (op.type() == OpType.OK && op.index() % 97 == 0 && op.value().get(0) instanceof MicroOp.Read r && r.known()) {
                List<MicroOp> mops = new ArrayList<>(op.value());
                long[] values = java.util.Arrays.copyOf(r.values(), r.values().length + 1);
                values[values.length - 1] = 1_000_000 + op.index(); // nobody appends it
                mops.set(0, new MicroOp.Read(r.key(), values));
                op = new Op(op.index(), op.time(), op.type(), op.process(), mops);
                garbage++;
            }
            HistoryEvent event = new HistoryEvent(e.source(), e.sequence(), op);
            events.add(e.sequence() == 0 ? event.declaringAgentProtocol() : event);
        }
        AtomTable atoms = new AtomTable();
        Set<String> offline = new HashSet<>();
        IncrementalChecker check = new IncrementalChecker(OPTIONS, atoms,
                f -> offline.add(FindingId.of(f, atoms, "agent")));
        events.forEach(e -> check.accept(e.op()));
        check.finish();
        List<HistoryEvent> arrival = new ArrayList<>(events);
        java.util.Random random = new java.util.Random(3);
        for (int i = 0; i + 4 < arrival.size(); i += 4) {
            java.util.Collections.shuffle(arrival.subList(i, i + 4), random);
        }
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(null, Duration.ZERO)) {
            for (int i = 0; i < arrival.size(); i++) {
                h.processElement(new StreamRecord<>(arrival.get(i), EventTime.of(arrival.get(i))));
                if (i % WATERMARK_EVERY == 0) {
                    h.setProcessingTime(h.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
                }
            }
            h.setProcessingTime(h.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
            List<Alert> live = new ArrayList<>(h.extractOutputValues());
            h.processWatermark(Long.MAX_VALUE);
            Set<String> all = new HashSet<>();
            h.extractOutputValues().forEach(a -> all.add(a.id()));
            assertEquals(offline, all, "the job's findings are check's");
            long liveGarbage = live.stream().filter(a -> a.type().equals("garbage-read")).count();
            assertTrue(garbage > 5, "garbage injected: " + garbage);
            assertEquals(garbage, liveGarbage, "every garbage read before any watermark");
        }
    }

    /**
     * Decision 0016 across a restore: a checker rebuilt from the kept batches resumes the protocol
     * for the keys first touched after its cut, so their garbage reads are alerted live as in the
     * uninterrupted run; keys touched before the cut wait (their earlier claims are forgotten), so
     * the restored run alerts nothing the uninterrupted one did not.
     */
    @Test
    void aDeclaredHistory_restoredFromACut_goesOnAlertingGarbageReadsLive() throws Exception {
        List<HistoryEvent> events = new ArrayList<>();
        Map<Long, Long> firstTouch = new java.util.HashMap<>();
        Map<String, Long> garbageKeyByTxnIndex = new java.util.HashMap<>();
        for (HistoryEvent e : history(0.0, 3_000)) {
            Op op = e.op();
            for (MicroOp m : op.value()) {
                firstTouch.putIfAbsent(m.key(), op.index());
            }
            if (op.type() == OpType.OK && op.index() % 97 == 0 && op.value().get(0) instanceof MicroOp.Read r && r.known()) {
                List<MicroOp> mops = new ArrayList<>(op.value());
                long[] values = java.util.Arrays.copyOf(r.values(), r.values().length + 1);
                values[values.length - 1] = 1_000_000 + op.index(); // nobody appends it
                mops.set(0, new MicroOp.Read(r.key(), values));
                op = new Op(op.index(), op.time(), op.type(), op.process(), mops);
                garbageKeyByTxnIndex.put(String.valueOf(op.index()), r.key());
            }
            HistoryEvent event = new HistoryEvent(e.source(), e.sequence(), op);
            events.add(e.sequence() == 0 ? event.declaringAgentProtocol() : event);
        }
        Set<String> uninterrupted = new HashSet<>();
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness()) {
            for (int i = 0; i < events.size(); i++) {
                send(h, events, i);
            }
            h.processWatermark(Long.MAX_VALUE);
            h.extractOutputValues().forEach(a -> uninterrupted.add(a.id()));
        }
        int stop = 3 * 200 + 130; // evictions done, the last 10 events after one
        OperatorSubtaskState snapshot;
        Set<String> resumed = new HashSet<>();
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness()) {
            for (int i = 0; i < stop; i++) {
                send(h, events, i);
            }
            snapshot = h.snapshot(1, 1);
            h.extractOutputValues().forEach(a -> resumed.add(a.id()));
        }
        List<Alert> liveAfterRestore;
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(snapshot)) {
            for (int i = stop; i < events.size(); i++) {
                send(h, events, i);
            }
            liveAfterRestore = new ArrayList<>(h.extractOutputValues());
            h.processWatermark(Long.MAX_VALUE);
            h.extractOutputValues().forEach(a -> resumed.add(a.id()));
        }
        Set<String> extra = new HashSet<>(resumed);
        extra.removeAll(uninterrupted);
        assertEquals(Set.of(), extra, "the restored run alerts nothing the uninterrupted one did not");
        long expected = garbageKeyByTxnIndex.values().stream().filter(key -> firstTouch.get(key) > stop).count();
        long live = liveAfterRestore.stream().filter(a -> a.type().equals("garbage-read")).count();
        assertTrue(expected > 5, "garbage reads of keys first touched after the restore: " + expected);
        assertEquals(expected, live, "each one alerted live after the restore");
    }

    /**
     * The restored checker must not judge a key touched before its cut: element 1 of key 100 was
     * appended at the history's start, forgotten by evictions, and first read after the restore.
     * Judging it would alert a garbage read the history disproves. Key 200's element 9, which
     * nobody appends, is alerted live.
     */
    @Test
    void aRestoredChecker_waitsOnKeysTouchedBeforeItsCut() throws Exception {
        List<HistoryEvent> events = new ArrayList<>();
        long seq = 0;
        events.add(Events.event("agent", seq, OpType.INVOKE, 1, seq + 1, new MicroOp.Append(100, 1)).declaringAgentProtocol());
        seq++;
        events.add(Events.event("agent", seq, OpType.OK, 1, seq + 1, new MicroOp.Append(100, 1)));
        seq++;
        for (long key = 1_000; seq < 600; key++) { // other keys, a txn each, long past the retention
            events.add(Events.event("agent", seq, OpType.INVOKE, 2, seq + 1, new MicroOp.Append(key, 1)));
            seq++;
            events.add(Events.event("agent", seq, OpType.OK, 2, seq + 1, new MicroOp.Append(key, 1)));
            seq++;
        }
        int stop = events.size();
        events.add(Events.event("agent", seq, OpType.INVOKE, 3, seq + 1, new MicroOp.Read(100, null)));
        seq++;
        events.add(Events.event("agent", seq, OpType.OK, 3, seq + 1, new MicroOp.Read(100, new long[] {1})));
        seq++;
        events.add(Events.event("agent", seq, OpType.INVOKE, 3, seq + 1, new MicroOp.Read(200, null)));
        seq++;
        events.add(Events.event("agent", seq, OpType.OK, 3, seq + 1, new MicroOp.Read(200, new long[] {9})));
        OperatorSubtaskState snapshot;
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness()) {
            for (int i = 0; i < stop; i++) {
                send(h, events, i);
            }
            snapshot = h.snapshot(1, 1);
            assertEquals(List.of(), h.extractOutputValues());
        }
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(snapshot)) {
            for (int i = stop; i < events.size(); i++) {
                h.processElement(new StreamRecord<>(events.get(i), EventTime.of(events.get(i))));
            }
            h.setProcessingTime(h.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
            List<String> live = h.extractOutputValues().stream().map(a -> a.type() + " " + a.id()).toList();
            assertEquals(1, live.size(), live.toString());
            assertTrue(live.get(0).startsWith("garbage-read"), live.toString());
            h.processWatermark(Long.MAX_VALUE);
            assertEquals(1, h.extractOutputValues().size(), "key 100's read is never called garbage");
        }
    }

    /**
     * Decision 0016: a history whose first event declares the agent protocol has its garbage reads
     * alerted as the reads complete, before any watermark; without the declaration, or once a
     * gap breaks the protocol, they wait for the end. Event 1 reads element 7 of key 2, which
     * nobody appends (and, with a gap, events 2 and 3 are never released before 4).
     */
    @Test
    void underTheDeclaredAgentProtocol_aGarbageReadIsAlertedAtItsCompletion_otherwiseAtTheEnd() throws Exception {
        for (String history : List.of("declared", "undeclared", "declared-with-gap")) {
            List<HistoryEvent> events = new ArrayList<>();
            HistoryEvent first = Events.event("agent", 0, OpType.INVOKE, 1, 10, new MicroOp.Read(2, null));
            events.add(history.startsWith("declared") ? first.declaringAgentProtocol() : first);
            events.add(Events.event("agent", 1, OpType.OK, 1, 11, new MicroOp.Read(2, new long[] {7})));
            long seq = history.endsWith("gap") ? 4 : 2;
            events.add(Events.event("agent", seq, OpType.INVOKE, 2, 12, new MicroOp.Read(3, null)));
            events.add(Events.event("agent", seq + 1, OpType.OK, 2, 13, new MicroOp.Read(3, new long[] {9})));
            try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(null, Duration.ZERO)) {
                for (HistoryEvent e : events.subList(0, 2)) {
                    h.processElement(new StreamRecord<>(e, EventTime.of(e)));
                }
                h.setProcessingTime(h.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
                List<String> early = h.extractOutputValues().stream().map(Alert::type).toList();
                // The gap: events 2 and 3 never come, so 4 and 5 leave only when the watermark passes them.
                for (HistoryEvent e : events.subList(2, 4)) {
                    h.processElement(new StreamRecord<>(e, EventTime.of(e)));
                }
                h.processWatermark(EventTime.of(events.get(3)) + 1);
                List<String> beforeTheEnd = h.extractOutputValues().stream().map(Alert::type).toList();
                h.processWatermark(Long.MAX_VALUE);
                List<String> all = h.extractOutputValues().stream().map(Alert::type).toList();
                switch (history) {
                    case "declared" -> {
                        assertEquals(List.of("garbage-read"), early, history);
                        assertEquals(List.of("garbage-read", "garbage-read"), beforeTheEnd, history);
                    }
                    case "undeclared" -> assertEquals(List.of(), beforeTheEnd, history);
                    default -> assertEquals(List.of("garbage-read"), beforeTheEnd,
                            history + ": the read after the gap waits for the end");
                }
                assertEquals(2, all.stream().filter("garbage-read"::equals).count(), history + ": " + all);
            }
        }
    }

    @Test
    void aHistoryJoinedAfterItsStart_isCheckedAsCut_soReadsOfEarlierWritesAreNotGarbage() throws Exception {
        // The read in Events.ok observes elements of key 2 that no event shown appends.
        for (long first : new long[] {0, 1_000}) {
            try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(null, Duration.ZERO)) {
                for (HistoryEvent e : List.of(Events.invoke("agent", first, 1, 10), Events.ok("agent", first + 1, 1, 11))) {
                    h.processElement(new StreamRecord<>(e, EventTime.of(e)));
                }
                h.processWatermark(Long.MAX_VALUE);
                String verdict = verdicts(h).get(0);
                List<String> alerted = h.extractOutputValues().stream().map(Alert::type).toList();
                if (first == 0) {
                    assertTrue(verdict.contains("garbage-read"), verdict);
                    assertTrue(alerted.contains("garbage-read"), alerted::toString);
                } else {
                    assertFalse(verdict.contains("garbage-read"), verdict);
                    assertEquals(List.of(), alerted, "joined at sequence 1,000: the writes read happened before");
                }
            }
        }
    }

    /** Issue 36: an alert says whether it waited for the end of its history; the metrics count both kinds. */
    @Test
    void findingsOfTheSettling_areMarkedReleasedAtTheEnd_andLiveOnesAreNot() throws Exception {
        CheckTransactionsFunction function = new CheckTransactionsFunction(OPTIONS, Duration.ZERO, Duration.ofMinutes(1));
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(function, null)) {
            // The read observes elements of key 2 that nobody appends: garbage, final only at the end.
            for (HistoryEvent e : List.of(Events.invoke("agent", 0, 1, 10), Events.ok("agent", 1, 1, 11))) {
                h.processElement(new StreamRecord<>(e, EventTime.of(e)));
            }
            h.setProcessingTime(h.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
            assertEquals(List.of(), h.extractOutputValues(), "nothing live: the read rests on an absence");
            h.processWatermark(Long.MAX_VALUE);
            List<Alert> alerts = h.extractOutputValues();
            assertFalse(alerts.isEmpty());
            for (Alert a : alerts) {
                assertTrue(a.releasedAtEnd(), a::toString);
                if (a.type().equals("garbage-read")) {
                    assertEquals(Release.GARBAGE_READ_REASON, a.release().reason());
                }
            }
            assertTrue(alerts.stream().anyMatch(a -> a.type().equals("garbage-read")), alerts::toString);
            assertEquals(alerts.size(), function.metrics().releasedAtEnd());
        }

        CheckTransactionsFunction live = new CheckTransactionsFunction(OPTIONS, Duration.ZERO, Duration.ofMinutes(1));
        List<HistoryEvent> events = history(0.01, 1_000);
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(live, null)) {
            for (HistoryEvent e : events) {
                h.processElement(new StreamRecord<>(e, EventTime.of(e)));
            }
            h.setProcessingTime(h.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
            List<Alert> alerts = h.extractOutputValues();
            assertFalse(alerts.isEmpty(), "stale reads make findings");
            assertTrue(alerts.stream().noneMatch(Alert::releasedAtEnd), "found from the events alone: live");
            assertEquals(0, live.metrics().releasedAtEnd());
            long[] buckets = live.metrics().delayBuckets();
            for (int i = 1; i < buckets.length; i++) {
                assertTrue(buckets[i - 1] <= buckets[i], "cumulative: " + java.util.Arrays.toString(buckets));
            }
            assertEquals(alerts.stream().filter(Alert::hasDetectionDelay).count(), buckets[buckets.length - 1],
                    "+Inf counts every alert with a delay");
        }
    }

    @Test
    void aLateFirstEventOfAnUnknownHistory_goesToLateEvents_withoutAChecker() throws Exception {
        CheckTransactionsFunction function = new CheckTransactionsFunction(OPTIONS, RETENTION, Duration.ofMinutes(1));
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(function, null)) {
            HistoryEvent known = Events.invoke("agent", 0, 1, 1_000);
            h.processElement(new StreamRecord<>(known, EventTime.of(known)));
            h.processWatermark(5_000);
            HistoryEvent stray = Events.invoke("stray", 0, 1, 2_000);
            h.processElement(new StreamRecord<>(stray, EventTime.of(stray)));

            assertEquals(List.of(stray), h.getSideOutput(CheckTransactionsFunction.LATE_EVENTS).stream()
                    .map(StreamRecord::getValue).toList());
            assertEquals(1, function.metrics().lateEvents());
            assertEquals(1, function.liveHistories(), "only the history that was released has a checker");
        }
    }

    @Test
    void waitingEvents_areOneStateElementPerHistory_andComeBackOnRestore() throws Exception {
        List<HistoryEvent> events = history(0, 100);
        OperatorSubtaskState waiting;
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness()) {
            for (HistoryEvent e : events) {
                h.processElement(new StreamRecord<>(e, EventTime.of(e)));
            }
            waiting = h.snapshot(1, 1);
        }
        // Every waiting event of the history in one element.
        assertEquals(Map.of(CheckTransactionsFunction.PENDING_EVENTS, 1), stateElements(waiting));

        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(waiting)) {
            h.processWatermark(Long.MAX_VALUE);
            String verdict = verdicts(h).get(0);
            assertTrue(verdict.contains("\"valid\":true"), verdict);
            assertTrue(verdict.contains("\"txns\":" + events.size() / 2 + ","), verdict);
        }
    }

    /** A verdict's JSON without its counts of transactions, events and edges. */
    private static String withoutStats(String verdict) {
        return verdict.replaceAll("\"(txns|ok|info|fail|ops|edges)\":\\d+", "\"$1\":_");
    }

    /** Union list state elements by state name, as the checkpoint's metadata records them. */
    private static Map<String, Integer> stateElements(OperatorSubtaskState state) {
        Map<String, Integer> elements = new TreeMap<>();
        for (OperatorStateHandle handle : state.getManagedOperatorState()) {
            handle.getStateNameToPartitionOffsets().forEach((name, info) -> elements.merge(name, info.getOffsets().length, Integer::sum));
        }
        return elements;
    }

    /** Sends event {@code i} and, every {@value #WATERMARK_EVERY} events, a watermark just behind it. */
    private static void send(KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h,
                             List<HistoryEvent> events, int i) throws Exception {
        HistoryEvent e = events.get(i);
        h.processElement(new StreamRecord<>(e, EventTime.of(e)));
        if (i % WATERMARK_EVERY == WATERMARK_EVERY - 1) {
            h.processWatermark(EventTime.of(e) - 10);
        }
    }

    /** A generated history whose event {@code i} happens at {@code i + 1} ms. */
    private static List<HistoryEvent> history(double staleReadRate, int txns) {
        List<HistoryEvent> out = new ArrayList<>();
        for (Op op : ListAppendGenerator.generate(GeneratorOptions.defaults().toBuilder().txnCount(txns).seed(11)
                .staleReadRate(staleReadRate).build())) {
            out.add(new HistoryEvent("agent", op.index(),
                    new Op(op.index(), (op.index() + 1) * 1_000_000L, op.type(), op.process(), op.value())));
        }
        return out;
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> harness() throws Exception {
        return harness(null);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> harness(
            OperatorSubtaskState restoreFrom) throws Exception {
        return harness(restoreFrom, RETENTION);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> harness(
            OperatorSubtaskState restoreFrom, Duration retention) throws Exception {
        return harness(new CheckTransactionsFunction(OPTIONS, retention, Duration.ofMinutes(1)), restoreFrom);
    }

    /** The operator around {@code function}, keyed as the job keys it, restored from {@code restoreFrom} if given. */
    static KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> harness(
            CheckTransactionsFunction function, OperatorSubtaskState restoreFrom) throws Exception {
        KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h =
                new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(function),
                        new AgentHistoryKey(), Types.STRING);
        h.setup(JobTypes.ALERT.createSerializer(h.getExecutionConfig().getSerializerConfig()));
        if (restoreFrom != null) {
            h.initializeState(restoreFrom);
        }
        h.open();
        return h;
    }

    private static List<String> verdicts(KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h) {
        ConcurrentLinkedQueue<StreamRecord<HistoryVerdict>> out = h.getSideOutput(CheckTransactionsFunction.VERDICTS);
        List<String> json = new ArrayList<>();
        if (out != null) {
            out.forEach(r -> json.add(VerdictJson.toJson(r.getValue().verdict(), r.getValue().atoms(), Double.NaN)));
        }
        assertEquals(1, json.size(), "one verdict per history");
        return json;
    }
}
