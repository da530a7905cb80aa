package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.isowatch.job.Events.invoke;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReleaseOrderTest {

    private final ReleaseOrder order = new ReleaseOrder(new SequenceQueue());

    private static HistoryEvent at(long seq) {
        return invoke("a", seq, 1, 100 + seq); // event time follows the sequence, as the recorder stamps it
    }

    private static List<Long> seqs(List<HistoryEvent> events) {
        return events.stream().map(HistoryEvent::sequence).toList();
    }

    @Test
    void beforeTheFirstRelease_nothingIsContiguous_andOnlyTheWatermarkReleases() {
        assertFalse(order.add(at(5)), "where the numbering stands is not known yet");
        assertFalse(order.add(at(6)));
        assertTrue(order.takeContiguous().isEmpty());
        assertEquals(List.of(5L), seqs(order.takeDue(105)));
        assertEquals(6, order.next());
        assertEquals(List.of(6L), seqs(order.takeContiguous()), "the run after what the watermark released");
    }

    @Test
    void theAgentsFirstEvent_startsTheRun_withoutTheWatermark() {
        assertFalse(order.add(at(1)), "1 cannot leave before 0");
        assertTrue(order.add(at(0)), "an agent numbers its history from 0: nothing comes before it");
        assertEquals(List.of(0L, 1L), seqs(order.takeContiguous()));
        assertEquals(2, order.next());
        assertTrue(order.isBehind(0), "a copy of 0 arriving now is behind");
    }

    @Test
    void aRunLeavesWhenTheNextSequenceArrives_andAsksForOneLingerTimer() {
        order.resumeAt(10);
        assertFalse(order.add(at(11)), "11 cannot leave before 10");
        assertTrue(order.add(at(10)), "10 starts a run: the caller registers a linger timer");
        assertFalse(order.add(at(12)), "a linger timer is already pending");
        assertEquals(List.of(10L, 11L, 12L), seqs(order.takeContiguous()));
        assertEquals(13, order.next());
        assertTrue(order.isBehind(12));
        assertFalse(order.isBehind(13));
        assertTrue(order.add(at(13)), "after the timer fired, the next run asks for a new one");
    }

    @Test
    void theWatermarkReleasesAcrossAGap_andTheRunAfterItResumes() {
        order.resumeAt(0);
        order.add(at(0));
        order.add(at(2));
        order.add(at(3));
        assertEquals(List.of(0L), seqs(order.takeContiguous()));
        assertTrue(order.takeContiguous().isEmpty(), "1 is missing");
        assertEquals(List.of(2L), seqs(order.takeDue(102)), "up to the watermark only");
        assertTrue(order.isBehind(1), "1 was passed over: late if it comes now");
        assertEquals(List.of(3L), seqs(order.takeContiguous()));
        assertTrue(order.isEmpty());
    }

    @Test
    void oneFallbackTimerAtTheHead_isEnough() {
        order.add(at(7));
        assertEquals(107, order.fallbackTimer());
        order.add(at(8));
        assertEquals(ReleaseOrder.NONE, order.fallbackTimer(), "the timer at 107 comes first");
        order.add(at(3));
        assertEquals(103, order.fallbackTimer(), "an earlier head needs an earlier timer");
        order.fired(103);
        order.takeDue(103);
        // It remembers only the earliest timer, so it asks for 107 again: Flink keeps one timer
        // per key and time, so the second registration changes nothing.
        assertEquals(107, order.fallbackTimer());
        assertEquals(ReleaseOrder.NONE, order.fallbackTimer());
        order.fired(107);
        order.takeDue(107);
        assertEquals(108, order.fallbackTimer());
        order.takeDue(108);
        assertEquals(ReleaseOrder.NONE, order.fallbackTimer(), "nothing waits");
    }
}
