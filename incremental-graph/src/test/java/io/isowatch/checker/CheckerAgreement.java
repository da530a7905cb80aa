package io.isowatch.checker;

import io.isowatch.history.Op;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import java.util.function.ObjIntConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The checks both workloads' properties ({@link CheckerProperties}, {@link
 * RegisterCheckerProperties}) make the same way: iterating prefixes, comparing the checker's
 * verdict with a batch reference's, and delivering a history reordered within the window. What
 * each workload generates, and which departures from Elle it tolerates, stays with its class.
 */
final class CheckerAgreement {

    /** The verdict half of a batch reference's result, as both references report it. */
    interface ReferenceVerdict {
        Validity valid();

        SortedSet<String> types();

        SortedSet<String> not();

        SortedSet<String> alsoNot();
    }

    private CheckerAgreement() {
    }

    /** Calls {@code check} on every prefix of the history, the empty and the whole one included, with its length. */
    static void forEachPrefix(List<Op> history, ObjIntConsumer<List<Op>> check) {
        for (int k = 0; k <= history.size(); k++) {
            check.accept(history.subList(0, k), k);
        }
    }

    /** Whether the checker's anomaly types, validity and boundary equal the reference's. */
    static boolean agree(ReferenceVerdict r, Verdict v) {
        return r.types().equals(CheckerHistories.typeNames(v)) && r.valid() == v.valid()
                && r.not().equals(v.not()) && r.alsoNot().equals(v.alsoNot());
    }

    /** Asserts {@link #agree}, one assertion per part, each message opening with the part's name. */
    static void assertSameVerdict(ReferenceVerdict expected, Verdict actual, String context) {
        assertEquals(expected.types(), CheckerHistories.typeNames(actual), () -> "anomaly types, " + context);
        assertEquals(expected.valid(), actual.valid(), () -> "valid, " + context);
        assertEquals(expected.not(), actual.not(), () -> "not, " + context);
        assertEquals(expected.alsoNot(), actual.alsoNot(), () -> "also-not, " + context);
    }

    /**
     * Sorts events by index plus a jitter in [0, window), ties in history order: an event is
     * overtaken only by events fewer than {@code window} positions after it.
     */
    static List<Op> jitter(List<Op> history, int window, SplittableRandom random) {
        List<long[]> keyed = new ArrayList<>(history.size());
        for (int i = 0; i < history.size(); i++) {
            keyed.add(new long[] {history.get(i).index() + random.nextInt(window), i});
        }
        keyed.sort(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]));
        return keyed.stream().map(a -> history.get((int) a[1])).toList();
    }

    /**
     * The verdict (valid, anomaly types, boundary) is the same in order and delivered as
     * {@code shuffled} with the reorder window; a checker that throws on the history must throw
     * the same way both times. {@code setting} names the options in the failure message.
     */
    static void assertReorderedSame(List<Op> history, List<Op> shuffled, CheckerOptions options, int window,
                                    String setting, BiFunction<List<Op>, CheckerOptions, Verdict> check) {
        java.util.function.Supplier<String> context = () -> "window " + window + setting + ", delivered as "
                + shuffled.stream().map(o -> String.valueOf(o.index())).toList() + "\n"
                + CheckerHistories.jsonLines(history);
        Verdict inOrder;
        try {
            inOrder = check.apply(history, options);
        } catch (RuntimeException e) {
            RuntimeException again = assertThrows(RuntimeException.class,
                    () -> check.apply(shuffled, options.toBuilder().reorderWindow(window).build()), context);
            assertEquals(String.valueOf(e), String.valueOf(again), context);
            return;
        }
        Verdict reordered = check.apply(shuffled, options.toBuilder().reorderWindow(window).build());
        assertEquals(inOrder.valid(), reordered.valid(), () -> "valid, " + context.get());
        assertEquals(inOrder.anomalyTypes(), reordered.anomalyTypes(), () -> "anomaly types, " + context.get());
        assertEquals(inOrder.not(), reordered.not(), () -> "not, " + context.get());
        assertEquals(inOrder.alsoNot(), reordered.alsoNot(), () -> "also-not, " + context.get());
    }
}
