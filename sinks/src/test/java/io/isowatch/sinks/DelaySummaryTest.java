package io.isowatch.sinks;

import io.isowatch.anomaly.AnomalyType;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DelaySummaryTest {

    @Test
    void nearestRank() {
        long[] sorted = {1, 2, 3, 4};
        assertEquals(2, DelaySummary.nearestRank(sorted, 0.50));
        assertEquals(4, DelaySummary.nearestRank(sorted, 0.99));
        assertEquals(1, DelaySummary.nearestRank(sorted, 0));
        assertEquals(1, DelaySummary.nearestRank(new long[] {1}, 0.50));
        assertThrows(IllegalArgumentException.class, () -> DelaySummary.nearestRank(new long[0], 0.5));
    }

    @Test
    void empty_hasNoLine() {
        DelaySummary s = new DelaySummary();
        assertEquals("", s.line());
        assertNull(s.p50p99max());
    }

    @Test
    void everyAlert_withItsRelease_unknownDelaysLeftOut() {
        DelaySummary s = new DelaySummary();
        for (int i = 1; i <= 299; i++) { // past the first array's 256 slots
            s.add(Alerts.gSingleAlert().released(Release.LIVE));
        }
        s.add(Alert.of(Alerts.gSingle(), java.util.List.of(), 0, Alert.UNKNOWN_DELAY, new io.isowatch.history.AtomTable()));
        s.add(new Alert("x", "", "garbage-read", "t", java.util.List.of(), 0, 61_000, "e", "{}")
                .released(Release.atEnd(AnomalyType.GARBAGE_READ)));
        assertEquals(300, s.count());
        assertEquals(1, s.releasedAtEnd());
        assertArrayEquals(new long[] {12, 12, 61_000}, s.p50p99max());
        assertEquals("detection delay over 300 alerts: p50 12 ms, p99 12 ms, max 61.0 s; 1 released only at the end"
                + " of the history", s.line());
    }
}
