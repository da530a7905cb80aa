package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;
import io.isowatch.history.OpType;
import io.isowatch.job.Events;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class HistoryCutTest {

    // Process 1 runs two transactions; process 2 invokes at 3 ms and completes at 9 ms.
    private static final List<HistoryEvent> EVENTS = List.of(
            Events.invoke("a", 0, 1, 1),
            Events.ok("a", 1, 1, 2),
            Events.invoke("a", 2, 2, 3),
            Events.invoke("a", 3, 1, 4),
            Events.ok("a", 4, 1, 5),
            Events.invoke("a", 5, 1, 6),
            Events.complete(OpType.INFO, "a", 6, 1, 7),
            Events.ok("a", 7, 2, 9));

    @Test
    void at_movesTheCutBackToTheOldestOpenInvocation() {
        HistoryCut cut = HistoryCut.at(EVENTS, 5);
        assertEquals(2, cut.index(), "process 2's transaction was open at 5 ms; its invocation is kept");
        assertEquals(List.of(2L, 3L, 4L, 5L, 6L, 7L), cut.kept().stream().map(HistoryEvent::sequence).toList());
        assertEquals(1, cut.evicted());
    }

    @Test
    void at_dropsCompletionsWhoseInvocationWasCut() {
        List<HistoryEvent> events = List.of(
                Events.invoke("a", 0, 1, 1),
                Events.invoke("a", 1, 2, 2),
                Events.ok("a", 2, 1, 3),
                Events.invoke("a", 3, 3, 4));
        // The first event after 3 ms is index 3; process 2 (index 1) is open there, so the cut is
        // index 1: process 1's invocation (index 0) goes, and so does its completion (index 2).
        HistoryCut cut = HistoryCut.at(events, 3);
        assertEquals(1, cut.index());
        assertEquals(List.of(1L, 3L), cut.kept().stream().map(HistoryEvent::sequence).toList());
        assertEquals(1, cut.evicted());
    }

    @Test
    void at_nothingOldEnough_orOpenFromTheStart_isNull() {
        assertNull(HistoryCut.at(EVENTS, 0), "no event is older than the cut time");
        assertNull(HistoryCut.at(List.of(Events.invoke("a", 0, 1, 1), Events.invoke("a", 1, 2, 2),
                Events.ok("a", 2, 2, 3)), 2), "the first invocation is still open: nothing can go");
    }

    @Test
    void at_completionOfCutInvocation_afterTheCut_isDropped() {
        List<HistoryEvent> events = List.of(
                Events.invoke("a", 0, 1, 1),
                Events.ok("a", 1, 1, 2),
                Events.invoke("a", 2, 2, 3),
                Events.invoke("a", 3, 3, 4),
                Events.ok("a", 4, 2, 5),
                Events.ok("a", 5, 3, 6));
        // At 4 ms processes 2 (index 2) and 3 (index 3) are open: the cut is index 2.
        HistoryCut cut = HistoryCut.at(events, 4);
        assertEquals(2, cut.index());
        assertEquals(List.of(2L, 3L, 4L, 5L), cut.kept().stream().map(HistoryEvent::sequence).toList());
    }
}
