package io.isowatch.checker;

import io.isowatch.history.Op;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What both anomaly injectors ({@link AnomalyInjector}, {@link RegisterAnomalyInjector}) do the
 * same way: shuffling a pattern's transactions and splicing its events into a history. The
 * patterns themselves, and how their micro-ops are written, stay with each workload.
 */
final class PatternSplicing {

    private PatternSplicing() {
    }

    /**
     * Splices {@code pattern} into {@code history} at random positions (keeping both orders) and
     * re-indexes densely with increasing times.
     */
    static List<Op> splice(List<Op> history, List<Op> pattern, SplittableRandom random) {
        int[] gaps = new int[pattern.size()];
        for (int i = 0; i < gaps.length; i++) {
            gaps[i] = random.nextInt(history.size() + 1);
        }
        Arrays.sort(gaps);
        List<Op> merged = new ArrayList<>(history.size() + pattern.size());
        int next = 0;
        for (int i = 0; i <= history.size(); i++) {
            while (next < gaps.length && gaps[next] == i) {
                merged.add(pattern.get(next++));
            }
            if (i < history.size()) {
                merged.add(history.get(i));
            }
        }
        return CheckerHistories.reindex(merged);
    }

    /** A Fisher–Yates shuffle of {@code items}; with no random source, the items in order. */
    static List<Integer> shuffled(List<Integer> items, SplittableRandom random) {
        List<Integer> a = new ArrayList<>(items);
        if (random != null) {
            for (int i = a.size() - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                Integer t = a.get(i);
                a.set(i, a.get(j));
                a.set(j, t);
            }
        }
        return a;
    }
}
