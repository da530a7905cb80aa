package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.history.Op;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** Each anomaly pattern on its own yields exactly its expected types, for the checker and the reference. */
class AnomalyInjectorTest {

    private static final CheckerOptions STRICT = CheckerOptions.defaults();

    @ParameterizedTest
    @EnumSource(AnomalyInjector.Pattern.class)
    void patternAlone_checked_reportsExactlyItsTypes(AnomalyInjector.Pattern p) {
        assertExactly(p, AnomalyInjector.alone(p));
    }

    @ParameterizedTest
    @EnumSource(AnomalyInjector.Pattern.class)
    void patternAlone_anyInvocationAndCompletionOrder_reportsExactlyItsTypes(AnomalyInjector.Pattern p) {
        for (long seed = 0; seed < 20; seed++) {
            assertExactly(p, CheckerHistories.reindex(AnomalyInjector.events(p, 5, 3, new SplittableRandom(seed))));
        }
    }

    @ParameterizedTest
    @EnumSource(AnomalyInjector.Pattern.class)
    void patternInjected_intoSerialHistory_usesFreshKeysAndProcesses(AnomalyInjector.Pattern p) {
        List<Op> base = CheckerHistories.history()
                .txn(0, "a:0:1 r:1:").txn(1, "r:0:1 a:1:7").txn(0, "r:1:7").build();
        List<Op> spliced = AnomalyInjector.inject(base, p, new SplittableRandom(42));
        assertEquals(base.size() + 2 * p.steps.size(), spliced.size());
        for (int i = 0; i < spliced.size(); i++) {
            assertEquals(i, spliced.get(i).index());
        }
        assertExactly(p, spliced);
    }

    private static void assertExactly(AnomalyInjector.Pattern p, List<Op> ops) {
        String history = CheckerHistories.jsonLines(ops);
        Verdict v = CheckerHistories.check(ops, STRICT);
        assertEquals(new TreeSet<>(p.expected), CheckerHistories.typeNames(v), p + " incremental\n" + history);
        assertEquals(Validity.FALSE, v.valid(), p + " incremental\n" + history);
        BatchReference.Result r = BatchReference.check(ops, Set.copyOf(ConsistencyModel.names(STRICT.consistencyModels())), Set.of());
        assertNotNull(r);
        assertEquals(new TreeSet<>(p.expected), r.types(), p + " reference\n" + history);
        assertEquals(Validity.FALSE, r.valid(), p + " reference\n" + history);
    }
}
