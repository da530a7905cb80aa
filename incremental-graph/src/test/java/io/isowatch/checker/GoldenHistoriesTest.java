package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every golden history gets exactly the verdict Elle gives it (or, for garbage reads, isowatch's).
 * Where Elle's verdict depends on the order its search meets cycles in (a hash order; goldens with
 * {@code elle-anomaly-types}, docs/elle-compatibility.md, "Edges from reads, and the cycle
 * search"), the verdict is the documented one, and every type Elle lists is among the findings.
 */
class GoldenHistoriesTest {

    static List<Golden.Case> cases() {
        return Golden.cases();
    }

    static List<Golden.Case> elleSearchOrderCases() {
        return Golden.cases().stream().filter(c -> c.strings(ELLE_TYPES) != null).toList();
    }

    /** Elle's anomaly types, where its search order made them differ from the verdict isowatch gives. */
    static final String ELLE_TYPES = "elle-anomaly-types";

    @ParameterizedTest(name = "{0}")
    @MethodSource("elleSearchOrderCases")
    void goldenHistory_elleSearchOrderDependent_everyTypeElleListsIsAFinding(Golden.Case c) {
        AtomTable atoms = new AtomTable();
        Set<String> found = new TreeSet<>();
        IncrementalChecker checker = new IncrementalChecker(c.checkerOptions(), atoms,
                f -> found.add(f.type().elleName()));
        c.ops(atoms).forEach(checker::accept);
        Verdict v = checker.finish();
        v.anomalyTypes().forEach(t -> found.add(t.elleName()));
        Set<String> missing = new TreeSet<>(c.strings(ELLE_TYPES));
        missing.removeAll(found);
        assertTrue(missing.isEmpty(), c + ": Elle lists " + missing + ", which no finding has; findings " + found);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void goldenHistory_checked_matchesExpectedVerdict(Golden.Case c) {
        Verdict v = check(c, 0);
        assertMatches(c, v);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void goldenHistory_deliveredReversedWithinWindow_sameVerdict(Golden.Case c) {
        Verdict v = check(c, 64);
        assertMatches(c, v);
    }

    static Verdict check(Golden.Case c, int window) {
        AtomTable atoms = new AtomTable();
        List<Op> ops = c.ops(atoms);
        CheckerOptions options = c.checkerOptions().toBuilder().reorderWindow(window).build();
        IncrementalChecker checker = new IncrementalChecker(options, atoms);
        if (window > 0) {
            // Deliver in reverse within the window: the worst order the window allows.
            List<Op> reversed = new ArrayList<>(ops);
            java.util.Collections.reverse(reversed);
            if (reversed.size() <= window) {
                reversed.forEach(checker::accept);
                return checker.finish();
            }
        }
        ops.forEach(checker::accept);
        return checker.finish();
    }

    static void assertMatches(Golden.Case c, Verdict v) {
        String expectedValid = String.valueOf(c.valid());
        assertEquals(expectedValid, v.valid().elleName(), c + ": valid; got " + v);
        Set<String> types = new TreeSet<>();
        v.anomalyTypes().forEach(t -> types.add(t.elleName()));
        assertEquals(new TreeSet<>(c.strings("anomaly-types")), types, c + ": anomaly-types");
        if (c.strings("not") != null) {
            assertEquals(new TreeSet<>(c.strings("not")), v.not(), c + ": not");
        }
        if (c.strings("also-not") != null) {
            assertEquals(new TreeSet<>(c.strings("also-not")), v.alsoNot(), c + ": also-not");
        }
        for (Map.Entry<String, List<List<Long>>> e : c.cycles().entrySet()) {
            AnomalyType type = AnomalyType.byElleName(e.getKey());
            List<Finding> found = v.anomalies().getOrDefault(type, List.of());
            Set<Set<Long>> ours = new HashSet<>();
            for (Finding f : found) {
                Set<Long> indices = new TreeSet<>();
                for (Txn t : f.txns()) {
                    indices.add(t.index());
                }
                ours.add(indices);
            }
            for (List<Long> cycle : e.getValue()) {
                assertTrue(ours.contains(new TreeSet<>(cycle)),
                        c + ": expected a " + type + " cycle over completions " + cycle + ", found " + ours);
            }
        }
    }
}
