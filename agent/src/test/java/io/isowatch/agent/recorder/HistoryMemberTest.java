package io.isowatch.agent.recorder;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The member rule of a history several agents record (issue 37), and what the recorder checks of it. */
class HistoryMemberTest {

    private final InMemoryEventLog log = new InMemoryEventLog();
    private final AtomicLong clock = new AtomicLong();

    @Test
    void member_ownsItsBillion_andMapsBothWays() {
        HistoryMember m = new HistoryMember("orders", 4);
        assertEquals(4_000_000_007L, m.process(7));
        assertEquals(4_000_000_001L, m.value(1));
        assertEquals(7, m.local(4_000_000_007L));
        assertTrue(m.owns(4_999_999_999L));
        assertFalse(m.owns(5_000_000_000L));
        assertFalse(m.owns(3_999_999_999L));
        assertFalse(m.owns(-1));
        assertEquals(5, new HistoryMember("orders", 0).process(5), "member 0 keeps an agent's own numbers");
    }

    @Test
    void member_outOfRange_isRefused_namingTheRange() {
        for (int bad : new int[] {-1, 1000}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> HistoryRecorder.builder("a", log).history("orders", bad));
            assertTrue(e.getMessage().startsWith("member " + bad + " of history 'orders': members are 0 to 999"),
                    e.getMessage());
        }
        new HistoryMember("orders", 999); // the largest accepted
    }

    @Test
    void localNumbers_pastTheBillion_areRefused() {
        HistoryMember m = new HistoryMember("orders", 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> m.process(1_000_000_000L));
        assertTrue(e.getMessage().contains("ran out of process ids"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> m.value(-1));
        assertThrows(IllegalArgumentException.class, () -> m.local(3_000_000_000L));
    }

    @Test
    void badHistoryNames_areRefused() {
        for (String bad : new String[] {"", "-orders", "or ders", "orders/eu", "x".repeat(101)}) {
            assertThrows(IllegalArgumentException.class, () -> new HistoryMember(bad, 0), bad);
        }
        new HistoryMember("orders.eu_1-a", 0);
    }

    @Test
    void recorder_namesTheHistory_onEveryEvent_andKeepsItsOwnIdAndSequence() {
        HistoryRecorder r = HistoryRecorder.builder("orders-2", log).clock(clock::get).history("orders", 2).build();
        HistoryMember m = r.member().orElseThrow();
        r.invoke(m.process(0), List.of(new MicroOp.Append(1, m.value(1))));
        r.fail(m.process(0));
        assertEquals("orders", r.history());
        for (HistoryEvent e : log.events()) {
            assertEquals("orders", e.history());
            assertTrue(e.namesHistory());
            assertEquals("orders-2", e.source());
        }
        assertEquals(List.of(0L, 1L), log.events().stream().map(HistoryEvent::sequence).toList());
    }

    @Test
    void recorder_withoutAHistory_recordsItsOwn_unnamed() {
        HistoryRecorder r = HistoryRecorder.builder("a", log).clock(clock::get).build();
        r.invoke(5, List.of(new MicroOp.Append(1, 1)));
        assertFalse(log.events().get(0).namesHistory());
        assertEquals("a", log.events().get(0).history());
        assertEquals("a", r.history());
        assertTrue(r.member().isEmpty());
    }

    @Test
    void recorder_refusesAnotherMembersProcess_orValue_beforeLoggingAnything() {
        HistoryRecorder r = HistoryRecorder.builder("orders-2", log).clock(clock::get).history("orders", 2).build();
        IllegalArgumentException process = assertThrows(IllegalArgumentException.class,
                () -> r.invoke(5, List.of(new MicroOp.Read(1, null))));
        assertTrue(process.getMessage().startsWith("process 5 is not one of member 2 of history 'orders'"),
                process.getMessage());
        IllegalArgumentException value = assertThrows(IllegalArgumentException.class,
                () -> r.invoke(2_000_000_000L, List.of(new MicroOp.Read(1, null), new MicroOp.Write(1, 3))));
        assertTrue(value.getMessage().contains("writes 3 to key 1, not a value of member 2"), value.getMessage());
        assertEquals(List.of(), log.events());
        assertEquals(0, r.openTransactions());
        // A string value has no number to check; it is recorded as given.
        long name = new AtomTable().ofString("x");
        r.invoke(2_000_000_000L, List.of(new MicroOp.Write(1, name)));
        assertEquals(1, log.events().size());
    }

    @Test
    void clockOffset_shiftsEveryRecordedTime_eitherWay() {
        clock.set(0);
        HistoryRecorder later = HistoryRecorder.builder("a", log).clock(clock::get).timeOrigin(1_000_000_000L)
                .clockOffset(Duration.ofMillis(250)).build();
        InMemoryEventLog other = new InMemoryEventLog();
        HistoryRecorder earlier = HistoryRecorder.builder("b", other).clock(clock::get).timeOrigin(1_000_000_000L)
                .clockOffset(Duration.ofMillis(-250)).build();
        clock.set(40);
        later.invoke(0, List.of(new MicroOp.Read(1, null)));
        earlier.invoke(0, List.of(new MicroOp.Read(1, null)));
        assertEquals(1_250_000_040L, log.ops().get(0).time());
        assertEquals(750_000_040L, other.ops().get(0).time());
    }

    @Test
    void clockOffset_beforeTimeZero_isRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HistoryRecorder.builder("a", log).clock(clock::get).clockOffset(Duration.ofSeconds(-1)).build());
        assertTrue(e.getMessage().contains("puts the first time before 0"), e.getMessage());
    }
}
