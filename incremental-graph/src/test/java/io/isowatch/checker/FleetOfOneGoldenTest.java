package io.isowatch.checker;

import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every golden history, checked as a fleet of one agent, gets the verdict it gets as one agent's
 * history: within one agent the fleet's realtime is Elle's, whatever the uncertainty, so the
 * stored realtime edges must give the cycle search, the classification and the verdict what the
 * implicit ones give. Times play no part within one agent; where a golden has none, the index
 * stands in (a fleet refuses events without a time).
 */
class FleetOfOneGoldenTest {

    static List<Golden.Case> cases() {
        return Golden.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void goldenHistory_asAFleetOfOne_hasTheSameVerdict(Golden.Case c) {
        AtomTable plainAtoms = new AtomTable();
        IncrementalChecker plain = new IncrementalChecker(c.checkerOptions(), plainAtoms);
        List<Op> ops;
        try {
            ops = c.ops(plainAtoms);
            ops.forEach(plain::accept);
        } catch (HistoryViolationException e) {
            return; // a golden of bad input: refused before its realtime matters
        }
        Verdict expected = plain.finish();

        AtomTable atoms = new AtomTable();
        IncrementalChecker fleet = new IncrementalChecker(c.checkerOptions(), atoms);
        if (c.checkerOptions().registerOptions().linearizableKeys()) {
            return; // refused for a fleet (FleetCheckerTest)
        }
        fleet.checkAsFleet(Duration.ofMillis(100), List.of("only"));
        for (Op op : c.ops(atoms)) {
            fleet.accept(op.time() < 0 ? new Op(op.index(), op.index(), op.type(), op.process(), op.value(),
                    op.sourceLine()) : op, 0);
        }
        Verdict v = fleet.finish();
        assertEquals(expected.valid(), v.valid(), c.toString());
        assertEquals(expected.anomalyTypes(), v.anomalyTypes(), c.toString());
        assertEquals(expected.not(), v.not(), c.toString());
        assertEquals(expected.stats(), v.stats(), c.toString());
    }
}
