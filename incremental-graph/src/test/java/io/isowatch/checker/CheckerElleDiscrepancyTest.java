package io.isowatch.checker;

import io.isowatch.history.Op;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * KNOWN BUGS: minimal histories on which {@link IncrementalChecker} departs from Elle, found by
 * {@link CheckerProperties}. Each test states Elle's verdict, derived from Elle's source (named in
 * the test's comment) and reproduced by {@link BatchReference}; each fails until the checker is
 * fixed. {@link BatchReference.Deviation} lets the properties tolerate these while they look for
 * new departures.
 */
class CheckerElleDiscrepancyTest {

    /**
     * Elle's {@code elle.core/realtime-graph} links every completed ok in its buffer to the
     * completion of each later invocation "regardless of whether this op will fail or crash", so
     * T1 -> T2 (fail) is a realtime edge, the graph is not empty, and Elle answers
     * {@code {:valid? true}}. The checker links only ok and info completions, finds no edge and
     * reports {@code empty-transaction-graph} (valid unknown).
     */
    @Test
    void realtimeEdgeToFailedTxn_makesTheGraphNonEmpty() {
        List<Op> h = CheckerHistories.history()
                .txn(0, "a:0:1")
                .invoke(0, "a:1:2").fail(0)
                .build();
        assertElle(h, Validity.TRUE, Set.of());
    }

    private static void assertElle(List<Op> h, Validity valid, Set<String> types) {
        BatchReference.Result r = BatchReference.check(h, CheckerOptions.DEFAULT_MODELS, Set.of());
        assertEquals(valid, r.valid(), "reference");
        assertEquals(new TreeSet<>(types), r.types(), "reference");
        Verdict v = CheckerHistories.check(h, CheckerOptions.defaults());
        String history = CheckerHistories.jsonLines(h);
        assertEquals(new TreeSet<>(types), CheckerHistories.typeNames(v), "checker\n" + history);
        assertEquals(valid, v.valid(), "checker\n" + history);
    }
}
