package io.isowatch.checker;

import io.isowatch.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The register batch reference reproduces every rw-register golden history's verdict, so it can
 * judge the checker.
 */
class RegisterBatchReferenceTest {

    static List<Golden.Case> cases() {
        return Golden.cases().stream().filter(c -> !CheckerHistories.load(c).listAppend()).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void goldenHistory_reference_matchesExpectedVerdict(Golden.Case c) {
        CheckerHistories.Loaded h = CheckerHistories.load(c);
        RegisterBatchReference.Result r = RegisterBatchReference.check(h.ops(), h.models(), h.anomalies(),
                h.registers());
        assertNotNull(r, c + ": ambiguous or too many cycles");
        assertEquals(String.valueOf(c.valid()), r.valid().elleName(), c + ": valid; got " + r);
        assertEquals(new TreeSet<>(c.strings("anomaly-types")), r.types(), c + ": anomaly-types");
        if (c.strings("not") != null) {
            assertEquals(new TreeSet<>(c.strings("not")), r.not(), c + ": not");
            assertEquals(new TreeSet<>(c.strings("also-not")), r.alsoNot(), c + ": also-not");
        }
    }
}
