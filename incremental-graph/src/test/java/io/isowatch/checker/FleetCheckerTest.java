package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decision 0021 on small histories: realtime between two agents needs a gap larger than the
 * clock uncertainty, realtime within one agent is Elle's, and the API refuses mixed use.
 */
class FleetCheckerTest {

    private static final long MS = 1_000_000L;
    private static final long X = 1;

    private final List<Finding> streamed = new ArrayList<>();
    private long index;

    private IncrementalChecker fleet(Duration epsilon, int reorderWindow) {
        IncrementalChecker c = new IncrementalChecker(CheckerOptions.defaults().toBuilder()
                .reorderWindow(reorderWindow).build(), new AtomTable(), streamed::add);
        c.checkAsFleet(epsilon, List.of("host-a", "host-b"));
        return c;
    }

    private final List<Op[]> events = new ArrayList<>();

    private void event(long time, OpType type, long process, int agent, List<MicroOp> value) {
        Op op = new Op(index++, time, type, process, value);
        events.add(new Op[] {op});
        agents.add(agent);
    }

    private final List<Integer> agents = new ArrayList<>();

    /**
     * Agent a appends 1 to x (completing at 1 s), agent b reads x empty, invoked {@code gapMs}
     * after; agent a then reads [1]. Under strict serializability the read is stale exactly when
     * the two are ordered in real time.
     */
    private void staleReadAcrossAgents(long gapMs, int readerAgent) {
        long t = 1_000 * MS;
        event(t - 10 * MS, OpType.INVOKE, 1, 0, List.of(new MicroOp.Append(X, 1)));
        event(t, OpType.OK, 1, 0, List.of(new MicroOp.Append(X, 1)));
        event(t + gapMs * MS, OpType.INVOKE, 2, readerAgent, List.of(new MicroOp.Read(X, null)));
        event(t + gapMs * MS + 1, OpType.OK, 2, readerAgent, List.of(new MicroOp.Read(X, new long[0])));
        event(t + gapMs * MS + 2, OpType.INVOKE, 1, 0, List.of(new MicroOp.Read(X, null)));
        event(t + gapMs * MS + 3, OpType.OK, 1, 0, List.of(new MicroOp.Read(X, new long[] {1})));
    }

    private Verdict feed(IncrementalChecker c) {
        for (int i = 0; i < events.size(); i++) {
            c.accept(events.get(i)[0], agents.get(i));
        }
        return c.finish();
    }

    private List<AnomalyType> realtimeTypes(Verdict v) {
        return v.anomalyTypes().stream().filter(t -> t.elleName().contains("realtime")).toList();
    }

    @Test
    void acrossAgents_aGapBeyondTheUncertainty_ordersInRealTime() {
        staleReadAcrossAgents(50, 1);
        Verdict v = feed(fleet(Duration.ofMillis(10), 0));
        assertEquals(Validity.FALSE, v.valid());
        assertEquals(List.of(AnomalyType.G_SINGLE_ITEM_REALTIME), v.anomalyTypes());
    }

    @Test
    void acrossAgents_aGapWithinTheUncertainty_ordersNothing() {
        staleReadAcrossAgents(50, 1);
        Verdict v = feed(fleet(Duration.ofMillis(100), 0));
        assertEquals(List.of(), realtimeTypes(v), v.anomalyTypes().toString());
        assertEquals(Validity.TRUE, v.valid());
    }

    @Test
    void acrossAgents_aGapEqualToTheUncertainty_ordersNothing() {
        staleReadAcrossAgents(50, 1);
        assertEquals(Validity.TRUE, feed(fleet(Duration.ofMillis(50), 0)).valid(), "the rule is strict: comp + ε < inv");
    }

    @Test
    void withinOneAgent_realtimeIsElles_whateverTheUncertainty() {
        staleReadAcrossAgents(50, 0);
        Verdict v = feed(fleet(Duration.ofHours(1), 0));
        assertEquals(Validity.FALSE, v.valid());
        assertFalse(realtimeTypes(v).isEmpty(), v.anomalyTypes().toString());
    }

    @Test
    void theRealtimeStepBetweenAgents_namesThemAndTheUncertainty() {
        staleReadAcrossAgents(50, 1);
        feed(fleet(Duration.ofMillis(10), 0));
        Evidence.Realtime rt = streamed.stream().filter(f -> f instanceof Finding.Cycle)
                .flatMap(f -> ((Finding.Cycle) f).steps().stream()).map(Finding.Step::evidence)
                .filter(e -> e instanceof Evidence.Realtime).map(e -> (Evidence.Realtime) e).findFirst().orElseThrow();
        assertNotNull(rt.agents());
        assertEquals(new Evidence.Agents("host-a", "host-b", 10 * MS), rt.agents());
    }

    @Test
    void theRealtimeStepWithinOneAgent_namesNoAgents() {
        staleReadAcrossAgents(50, 0);
        feed(fleet(Duration.ofMillis(10), 0));
        Evidence.Realtime rt = streamed.stream().filter(f -> f instanceof Finding.Cycle)
                .flatMap(f -> ((Finding.Cycle) f).steps().stream()).map(Finding.Step::evidence)
                .filter(e -> e instanceof Evidence.Realtime).map(e -> (Evidence.Realtime) e).findFirst().orElseThrow();
        assertNull(rt.agents());
    }

    @Test
    void anUnnamedAgent_isNamedByItsOrdinal() {
        staleReadAcrossAgents(50, 1);
        IncrementalChecker c = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable(), streamed::add);
        c.checkAsFleet(Duration.ZERO);
        c.agentNamed(0, "first");
        feed(c);
        assertTrue(streamed.stream().filter(f -> f instanceof Finding.Cycle)
                .flatMap(f -> ((Finding.Cycle) f).steps().stream()).map(Finding.Step::evidence)
                .anyMatch(e -> e instanceof Evidence.Realtime r && r.agents() != null
                        && r.agents().completedOn().equals("first") && r.agents().invokedOn().equals("agent 1")));
    }

    @Test
    void aReorderWindow_keepsEachEventsAgent() {
        staleReadAcrossAgents(50, 1);
        // Swap the reader's invocation and completion of the writer: both within a window of 2.
        Op[] e1 = events.get(1);
        events.set(1, events.get(2));
        events.set(2, e1);
        Integer a1 = agents.get(1);
        agents.set(1, agents.get(2));
        agents.set(2, a1);
        Verdict v = feed(fleet(Duration.ofMillis(10), 2));
        assertFalse(realtimeTypes(v).isEmpty(), v.anomalyTypes().toString());
    }

    @Test
    void evictingAFleet_forgetsAndRenumbers_andLaterEdgesStillCount() {
        IncrementalChecker c = fleet(Duration.ofMillis(10), 0);
        // Two transactions to forget, then the stale read of staleReadAcrossAgents at later times.
        event(1 * MS, OpType.INVOKE, 5, 1, List.of(new MicroOp.Append(2, 1)));
        event(2 * MS, OpType.OK, 5, 1, List.of(new MicroOp.Append(2, 1)));
        event(3 * MS, OpType.INVOKE, 6, 0, List.of(new MicroOp.Append(3, 1)));
        event(4 * MS, OpType.OK, 6, 0, List.of(new MicroOp.Append(3, 1)));
        for (int i = 0; i < events.size(); i++) {
            c.accept(events.get(i)[0], agents.get(i));
        }
        assertEquals(2, c.evictInvokedBefore(500 * MS));
        events.clear();
        agents.clear();
        staleReadAcrossAgents(50, 1);
        for (int i = 0; i < events.size(); i++) {
            c.accept(events.get(i)[0], agents.get(i));
        }
        Verdict v = c.finish();
        assertFalse(realtimeTypes(v).isEmpty(), v.anomalyTypes().toString());
    }

    @Test
    void mixingTheTwoAccepts_isRefused() {
        Op op = new Op(0, 0, OpType.INVOKE, 1, List.of(new MicroOp.Append(X, 1)));
        IncrementalChecker plain = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> plain.accept(op, 0));
        assertTrue(e.getMessage().contains("checkAsFleet"), e.getMessage());
        IncrementalChecker f = fleet(Duration.ZERO, 0);
        e = assertThrows(IllegalStateException.class, () -> f.accept(op));
        assertTrue(e.getMessage().contains("accept(op, agent)"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> f.accept(op, -1));
    }

    @Test
    void checkAsFleet_afterAnEvent_orWithANegativeUncertainty_isRefused() {
        IncrementalChecker c = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        assertThrows(IllegalArgumentException.class, () -> c.checkAsFleet(Duration.ofMillis(-1)));
        c.accept(new Op(0, 0, OpType.INVOKE, 1, List.of(new MicroOp.Append(X, 1))));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.checkAsFleet(Duration.ZERO));
        assertTrue(e.getMessage().contains("before the first"), e.getMessage());
    }

    @Test
    void linearizableKeys_isRefusedForAFleet() {
        IncrementalChecker c = new IncrementalChecker(CheckerOptions.defaults().toBuilder()
                .registers(new RegisterOptions(false, false, true)).build(), new AtomTable());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.checkAsFleet(Duration.ZERO));
        assertTrue(e.getMessage().contains("linearizable-keys"), e.getMessage());
        new IncrementalChecker(CheckerOptions.defaults().toBuilder().registers(new RegisterOptions(true, true, false))
                .build(), new AtomTable()).checkAsFleet(Duration.ZERO);
    }

    @Test
    void theAgentProtocol_andAFleet_refuseEachOther() {
        IncrementalChecker protocol = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        protocol.followAgentProtocol();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> protocol.checkAsFleet(Duration.ZERO));
        assertTrue(e.getMessage().contains("garbage reads"), e.getMessage());
        IncrementalChecker f = fleet(Duration.ZERO, 0);
        assertThrows(IllegalStateException.class, f::followAgentProtocol);
        IncrementalChecker cut = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        cut.historyTruncated();
        cut.checkAsFleet(Duration.ZERO);
        assertThrows(IllegalStateException.class, () -> cut.resumeAgentProtocol(new org.roaringbitmap.longlong.Roaring64Bitmap()));
        assertFalse(f.judgesReadsAtCompletion());
    }

    @Test
    void aFleetEventWithoutTime_isAHistoryViolation() {
        IncrementalChecker c = fleet(Duration.ZERO, 0);
        HistoryViolationException e = assertThrows(HistoryViolationException.class,
                () -> c.accept(new Op(0, -1, OpType.INVOKE, 1, List.of(new MicroOp.Append(X, 1))), 0));
        assertTrue(e.getMessage().contains("no :time"), e.getMessage());
    }
}
