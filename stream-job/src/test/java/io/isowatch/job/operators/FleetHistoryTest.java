package io.isowatch.job.operators;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.job.DeadLetter;
import io.isowatch.sinks.Alert;

import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One history recorded by two agents ({@code a} and {@code b} of history {@code shop}), through
 * the job's checker operator: the events enter the checker merged by time, each agent's in its
 * own order; a write skew between the agents is found; a silent agent holds the others back
 * until its idle time passes; an agent behind the merge is late; two agents sharing a process
 * are refused; a restore in the middle gives what the uninterrupted run gives.
 */
class FleetHistoryTest {

    private static final CheckerOptions OPTIONS = CheckerOptions.defaults().toBuilder()
            .consistencyModels(Set.of(ConsistencyModel.of("serializable"))).build();
    private static final Duration IDLE = Duration.ofSeconds(2);
    private static final long A = 1_000_000_000L;
    private static final long B = 2_000_000_000L;

    /**
     * T1 (agent a) reads key 1 empty and appends 1 to key 2; T2 (agent b) reads key 2 empty and
     * appends 2 to key 1, at overlapping times; a closing read by a sees both: G2-item, a write
     * skew across the agents. Then each agent goes on with harmless work up to {@code until} ms.
     */
    private static List<HistoryEvent> writeSkew(int until) {
        List<HistoryEvent> a = new ArrayList<>();
        List<HistoryEvent> b = new ArrayList<>();
        a.add(event("a", 0, OpType.INVOKE, A + 1, 10, new MicroOp.Read(1, null), new MicroOp.Append(2, A + 1)));
        b.add(event("b", 0, OpType.INVOKE, B + 1, 11, new MicroOp.Read(2, null), new MicroOp.Append(1, B + 1)));
        a.add(event("a", 1, OpType.OK, A + 1, 20, new MicroOp.Read(1, new long[0]), new MicroOp.Append(2, A + 1)));
        b.add(event("b", 1, OpType.OK, B + 1, 21, new MicroOp.Read(2, new long[0]), new MicroOp.Append(1, B + 1)));
        a.add(event("a", 2, OpType.INVOKE, A + 1, 30, new MicroOp.Read(1, null), new MicroOp.Read(2, null)));
        a.add(event("a", 3, OpType.OK, A + 1, 31, new MicroOp.Read(1, new long[] {B + 1}),
                new MicroOp.Read(2, new long[] {A + 1})));
        filler(a, "a", A + 2, 4, 40, until);
        filler(b, "b", B + 2, 2, 45, until);
        List<HistoryEvent> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Reads of key 100+agent by one process every 10 ms from {@code from} to {@code until}. */
    private static void filler(List<HistoryEvent> out, String agent, long process, long seq, int from, int until) {
        long key = 100 + agent.charAt(0);
        for (int t = from; t < until; t += 10) {
            out.add(event(agent, seq++, OpType.INVOKE, process, t, new MicroOp.Read(key, null)));
            out.add(event(agent, seq++, OpType.OK, process, t + 1, new MicroOp.Read(key, new long[0])));
        }
    }

    private static HistoryEvent event(String agent, long seq, OpType type, long process, long millis,
                                      MicroOp... mops) {
        return new HistoryEvent(agent, seq, new Op(seq, millis * 1_000_000L, type, process, List.of(mops)))
                .inHistory("shop");
    }

    @Test
    void twoAgents_writeSkewAcrossThem_isFound_andTheCheckerTakesTheMergeOrder() throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(null)) {
            for (HistoryEvent e : writeSkew(200)) { // all of a's events, then all of b's: Kafka's order by partition
                h.processElement(e, e.op().time() / 1_000_000L);
            }
            h.processWatermark(Long.MAX_VALUE);
            List<Alert> alerts = alerts(h);
            assertEquals(List.of("G2-item"), alerts.stream().map(Alert::type).distinct().toList(),
                    alerts.toString());
            assertEquals("shop", alerts.get(0).history());
            assertEquals(List.of("a", "b"), alerts.get(0).agents(), "the write skew's transactions are a's and b's");
            List<HistoryEvent> checked = checked(h);
            assertEquals(writeSkew(200).size(), checked.size());
            for (int i = 1; i < checked.size(); i++) {
                long before = checked.get(i - 1).op().time();
                long now = checked.get(i).op().time();
                assertTrue(before <= now, "merged by time: " + checked.get(i - 1) + " then " + checked.get(i));
            }
            assertEquals(List.of("a", "b", "a", "b"), checked.subList(0, 4).stream().map(HistoryEvent::source).toList(),
                    "the agents' events interleave by time although a's all arrived first");
        }
    }

    @Test
    void aSilentAgent_holdsTheHistoryBack_untilItsIdleTimePasses() throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(null)) {
            List<HistoryEvent> events = writeSkew(3_000);
            // b's first two events arrive, then b goes silent; a goes on for three seconds.
            List<HistoryEvent> fromB = events.stream().filter(e -> e.source().equals("b")).limit(2).toList();
            List<HistoryEvent> fromA = events.stream().filter(e -> e.source().equals("a")).toList();
            for (HistoryEvent e : fromB) {
                h.processElement(e, e.op().time() / 1_000_000L);
            }
            int fed = 0;
            for (HistoryEvent e : fromA) {
                h.processElement(e, e.op().time() / 1_000_000L);
                if (e.sequence() == 3) {
                    h.processWatermark(25); // the first merge waits for the watermark: b is known by then
                }
                if (e.sequence() % 20 == 0) {
                    h.setProcessingTime(h.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
                }
                long ms = e.op().time() / 1_000_000L;
                if (ms == 1_000) {
                    fed = checked(h).size();
                }
            }
            h.setProcessingTime(h.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
            assertTrue(fed <= 6, "while b may still bring events from 21 ms on, a's wait: " + fed + " checked");
            int after = checked(h).size();
            assertTrue(after > fromA.size() / 2, "b silent for more than the idle time (2 s) holds nothing back: "
                    + after + " checked of " + (fromA.size() + 2));
            // b comes back with an event from before what was merged: late, not merged.
            HistoryEvent stale = event("b", 2, OpType.INVOKE, B + 2, 45, new MicroOp.Read(198, null));
            h.processElement(stale, 45);
            assertEquals(1, h.getSideOutput(CheckTransactionsFunction.LATE_EVENTS).size());
        }
    }

    /**
     * Agent c starts while a and b run. Its first records reach the job {@code lag} ms behind
     * theirs: within the join grace they merge in order; beyond it they are late, never merged
     * out of order.
     */
    @Test
    void anAgentJoiningARunningHistory_mergesInOrder_withinTheJoinGrace_andIsLateBeyondIt() throws Exception {
        assertEquals(0, lateWhenJoining(CheckTransactionsFunction.AGENT_JOIN_GRACE_MILLIS - 100));
        assertTrue(lateWhenJoining(CheckTransactionsFunction.AGENT_JOIN_GRACE_MILLIS + 300) > 0);
    }

    private static int lateWhenJoining(long lag) throws Exception {
        List<HistoryEvent> running = new ArrayList<>();
        filler(running, "a", A + 1, 0, 0, 2_000);
        filler(running, "b", B + 1, 0, 5, 2_000);
        List<HistoryEvent> joining = new ArrayList<>();
        filler(joining, "c", 3_000_000_001L, 0, 1_000, 2_000);
        List<HistoryEvent> arrivals = new ArrayList<>(running);
        arrivals.addAll(joining);
        // Arrival order: by time, c's shifted by its lag.
        arrivals.sort(java.util.Comparator.comparingLong((HistoryEvent e) -> e.op().time()
                + (e.source().equals("c") ? lag * 1_000_000L : 0)));
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(null)) {
            long lastMillis = 0;
            for (HistoryEvent e : arrivals) {
                h.processElement(e, e.op().time() / 1_000_000L);
                long arrivedAt = e.op().time() / 1_000_000L + (e.source().equals("c") ? lag : 0);
                if (arrivedAt - lastMillis >= 20) { // linger timers fire as the stream goes on
                    h.setProcessingTime(h.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
                    lastMillis = arrivedAt;
                }
                if (e.source().equals("a") && e.sequence() == 10) {
                    h.processWatermark(50); // the first merge: a and b are known
                }
            }
            h.processWatermark(Long.MAX_VALUE);
            int late = h.getSideOutput(CheckTransactionsFunction.LATE_EVENTS) == null ? 0
                    : h.getSideOutput(CheckTransactionsFunction.LATE_EVENTS).size();
            List<HistoryEvent> checked = checked(h);
            assertEquals(arrivals.size() - late, checked.size());
            for (int i = 1; i < checked.size(); i++) {
                assertTrue(checked.get(i - 1).op().time() <= checked.get(i).op().time(), "in time order");
            }
            return late;
        }
    }

    @Test
    void twoAgentsSharingAProcess_areRefused_asADeadLetterNamingBoth() throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(null)) {
            h.processElement(event("a", 0, OpType.INVOKE, 7, 10, new MicroOp.Read(1, null)), 10);
            h.processElement(event("b", 0, OpType.INVOKE, 7, 11, new MicroOp.Read(1, null)), 11);
            Queue<StreamRecord<DeadLetter>> dead = h.getSideOutput(CheckTransactionsFunction.DEAD_LETTERS);
            assertEquals(1, dead.size());
            DeadLetter d = dead.peek().getValue();
            assertEquals(DeadLetter.Kind.PROCESS_SHARED_BY_AGENTS, d.kind());
            assertTrue(d.error().contains("agents a and b"), d.error());
        }
    }

    @Test
    void aRestoreWhileEventsWaitForTheMerge_checksWhatTheUninterruptedRunChecks() throws Exception {
        List<HistoryEvent> events = new ArrayList<>(writeSkew(400));
        // As a live run receives them: roughly by time, each agent's in its order.
        events.sort(java.util.Comparator.comparingLong((HistoryEvent e) -> e.op().time()));
        List<HistoryEvent> straight;
        List<String> straightAlerts;
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(null)) {
            events.forEach(e -> process(h, e));
            h.processWatermark(Long.MAX_VALUE);
            straight = checked(h);
            straightAlerts = alerts(h).stream().map(Alert::id).toList();
        }
        OperatorSubtaskState snapshot;
        List<HistoryEvent> before;
        List<String> alertsBefore;
        int half = events.size() / 2;
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(null)) {
            events.subList(0, half).forEach(e -> process(h, e));
            h.processWatermark(15);
            h.setProcessingTime(h.getProcessingTime() + CheckTransactionsFunction.LINGER_MILLIS);
            // a's last event before the snapshot waits for b's next one, which is not there yet.
            before = checked(h);
            alertsBefore = alerts(h).stream().map(Alert::id).toList();
            snapshot = h.snapshot(1, 1);
        }
        assertTrue(before.size() < half, "some of a's events wait for b's at the snapshot: " + before.size());
        try (KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h = harness(snapshot)) {
            events.subList(half, events.size()).forEach(e -> process(h, e));
            h.processWatermark(Long.MAX_VALUE);
            List<HistoryEvent> all = new ArrayList<>(before);
            all.addAll(checked(h));
            assertEquals(straight, all, "the same events in the same order");
            List<String> ids = new ArrayList<>(alertsBefore);
            ids.addAll(alerts(h).stream().map(Alert::id).toList());
            assertEquals(straightAlerts.stream().sorted().toList(), ids.stream().sorted().toList());
        }
    }

    private static void process(KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h,
                                HistoryEvent e) {
        try {
            h.processElement(e, e.op().time() / 1_000_000L);
        } catch (Exception x) {
            throw new IllegalStateException(x);
        }
    }

    private static List<Alert> alerts(KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h) {
        return h.extractOutputValues();
    }

    private static List<HistoryEvent> checked(KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> h) {
        Queue<StreamRecord<HistoryEvent>> out = h.getSideOutput(CheckTransactionsFunction.CHECKED_EVENTS);
        List<HistoryEvent> events = new ArrayList<>();
        if (out != null) {
            out.forEach(r -> events.add(r.getValue()));
        }
        return events;
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, HistoryEvent, Alert> harness(
            OperatorSubtaskState restoreFrom) throws Exception {
        return CheckTransactionsFunctionTest.harness(new CheckTransactionsFunction(OPTIONS, Duration.ZERO,
                Duration.ofMinutes(1), IDLE).emittingCheckedEvents(), restoreFrom);
    }
}
