package io.isowatch.trace;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RepeatRunsTest {

    /** Positions 0..9 with repeats at 2, 3, 4 (one run) and 7. */
    private static RepeatRuns runs() {
        RepeatRuns runs = new RepeatRuns();
        for (int p : new int[] {2, 3, 4, 7}) {
            runs.add(p);
        }
        return runs;
    }

    @Test
    void distinctAtOrAfter_skipsAWholeRunOfRepeats_andKeepsADistinctPosition() {
        RepeatRuns runs = runs();
        assertEquals(1, runs.distinctAtOrAfter(1));
        assertEquals(5, runs.distinctAtOrAfter(2));
        assertEquals(5, runs.distinctAtOrAfter(4));
        assertEquals(8, runs.distinctAtOrAfter(7));
        assertEquals(9, runs.distinctAtOrAfter(9));
    }

    @Test
    void distinctAtOrBefore_skipsAWholeRunOfRepeats_andKeepsADistinctPosition() {
        RepeatRuns runs = runs();
        assertEquals(1, runs.distinctAtOrBefore(4));
        assertEquals(1, runs.distinctAtOrBefore(2));
        assertEquals(6, runs.distinctAtOrBefore(7));
        assertEquals(0, runs.distinctAtOrBefore(0));
    }

    @Test
    void aMillionRepeatsInOneRun_areSkippedAtOnce() {
        RepeatRuns runs = new RepeatRuns();
        for (int p = 1; p <= 1_000_000; p++) {
            runs.add(p);
        }
        assertEquals(1_000_001, runs.distinctAtOrAfter(1));
        assertEquals(0, runs.distinctAtOrBefore(1_000_000));
    }
}
