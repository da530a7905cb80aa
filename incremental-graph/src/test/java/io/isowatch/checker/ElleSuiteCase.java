package io.isowatch.checker;

import io.isowatch.history.Op;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One assertion of Elle's own test suite ({@link ElleListAppendSuiteTest},
 * {@link ElleRwRegisterSuiteTest}): a history, the options it is checked with, and the
 * {@code valid?}, {@code anomaly-types} and {@code not} Elle's test expects.
 */
record ElleSuiteCase(String where, List<Op> history, CheckerOptions options, Validity valid, List<String> types,
                     Set<String> not) {

    /** Checks the history and requires Elle's verdict. */
    void assertVerdict() {
        Verdict v = CheckerHistories.check(history, options);
        String ops = CheckerHistories.jsonLines(history);
        assertEquals(valid, v.valid(), "valid?\n" + ops);
        assertEquals(types, v.anomalyTypes().stream().map(t -> t.elleName()).toList(), "anomaly-types\n" + ops);
        assertEquals(new TreeSet<>(not), v.not(), "not\n" + ops);
    }

    @Override
    public String toString() {
        return where;
    }

    static ElleSuiteCase valid(String where, List<Op> h, CheckerOptions o) {
        return new ElleSuiteCase(where, h, o, Validity.TRUE, List.of(), Set.of());
    }

    static ElleSuiteCase invalid(String where, List<Op> h, CheckerOptions o, List<String> types, String... not) {
        return new ElleSuiteCase(where, h, o, Validity.FALSE, types, Set.of(not));
    }

    static ElleSuiteCase unknown(String where, List<Op> h, CheckerOptions o, List<String> types, String... not) {
        return new ElleSuiteCase(where, h, o, Validity.UNKNOWN, types, Set.of(not));
    }

    /**
     * Elle's {@code op} for each transaction (an ok completion of process 0, no invocation), or
     * with {@code paired} its {@code pair} (the invocation just before), one after another;
     * {@code notation} turns Elle's notation into the builder's.
     */
    static List<Op> process0(CheckerHistories.Builder b, UnaryOperator<String> notation, boolean paired,
                             String... txns) {
        for (String t : txns) {
            if (paired) {
                b.txn(0, notation.apply(t));
            } else {
                b.ok(0, notation.apply(t));
            }
        }
        return b.build();
    }
}
