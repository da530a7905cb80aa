package io.isowatch.checker;

import io.isowatch.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The batch reference reproduces every list-append golden history's Elle verdict, so it can judge
 * the checker. (It knows no rw-register; those goldens are skipped, and so are those whose Elle
 * verdict depends on the order Elle's search meets cycles in, which no restatement can settle.)
 */
class BatchReferenceTest {

    static List<Golden.Case> cases() {
        return Golden.cases().stream()
                .filter(c -> CheckerHistories.load(c).listAppend() && c.strings(GoldenHistoriesTest.ELLE_TYPES) == null)
                .toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void goldenHistory_reference_matchesExpectedVerdict(Golden.Case c) {
        CheckerHistories.Loaded h = CheckerHistories.load(c);
        BatchReference.Result r = BatchReference.check(h.ops(), h.models(), h.anomalies());
        assertNotNull(r, c + ": too many cycles");
        assertEquals(String.valueOf(c.valid()), r.valid().elleName(), c + ": valid; got " + r);
        assertEquals(new TreeSet<>(c.strings("anomaly-types")), r.types(), c + ": anomaly-types");
        if (c.strings("not") != null) {
            assertEquals(new TreeSet<>(c.strings("not")), r.not(), c + ": not");
            assertEquals(new TreeSet<>(c.strings("also-not")), r.alsoNot(), c + ": also-not");
        }
    }
}
