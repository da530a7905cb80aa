package io.isowatch.trace;

import io.isowatch.collect.IntList;

/**
 * The positions of a list-append key's version order that repeat an earlier element, as runs of
 * consecutive positions, so that the distinct element next to a position is found in
 * O(log runs) however many repeats lie between: a scan from position to position made each read
 * of a key whose order held a long run of repeats cost the run's length.
 *
 * <p>Positions are added in increasing order (the order only grows at its end). A key without
 * repeats, as in every valid history, never makes one of these.
 */
final class RepeatRuns {

    /** Run i covers positions {@code starts[i]} up to, not including, {@code ends[i]}. */
    private final IntList starts = new IntList(2);
    private final IntList ends = new IntList(2);

    /** Marks {@code position}, greater than every position marked so far, as a repeat. */
    void add(int position) {
        int last = ends.size() - 1;
        if (last >= 0 && ends.get(last) == position) {
            ends.set(last, position + 1);
        } else {
            starts.add(position);
            ends.add(position + 1);
        }
    }

    /** The first position at or after {@code q} that is not a repeat (may be past the order's end). */
    int distinctAtOrAfter(int q) {
        int run = runHolding(q);
        return run < 0 ? q : ends.get(run);
    }

    /** The last position at or before {@code q} that is not a repeat, or -1. */
    int distinctAtOrBefore(int q) {
        int run = runHolding(q);
        return run < 0 ? q : starts.get(run) - 1;
    }

    /** The run that holds {@code q}, or -1. Runs are maximal, so the positions beside one are distinct. */
    private int runHolding(int q) {
        int lo = 0;
        int hi = starts.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (starts.get(mid) > q) {
                hi = mid - 1;
            } else if (ends.get(mid) <= q) {
                lo = mid + 1;
            } else {
                return mid;
            }
        }
        return -1;
    }
}
