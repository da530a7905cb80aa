package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.gen.GeneratorArbitraries;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A checker that sees a history only from a cut on ({@link IncrementalChecker#historyTruncated()},
 * as the stream job's compaction feeds it) never claims more than the whole history proves:
 * silent on correct histories, and on faulty ones it rules out no model the whole history does
 * not rule out. The cut drops every event before an index and the completions of transactions
 * invoked before it, exactly as the job does.
 */
class TruncatedHistoryProperties {

    private static final Set<String> MODELS = Set.of("strict-serializable");

    @Provide
    Arbitrary<GeneratorOptions> correct() {
        return GeneratorArbitraries.smallHistories(60).map(o -> o.withStaleReadRate(0));
    }

    @Provide
    Arbitrary<GeneratorOptions> any() {
        return GeneratorArbitraries.smallHistories(60);
    }

    @Property(tries = 300, seed = "20261123")
    void correctHistory_checkedFromAnyCut_staysValid(@ForAll("correct") GeneratorOptions generator,
                                                    @ForAll @DoubleRange(min = 0, max = 1) double cutAt) {
        List<Op> history = ListAppendGenerator.generate(generator);
        Verdict v = check(suffix(history, cut(history, cutAt)), true);
        assertEquals(Validity.TRUE, v.valid(), () -> v.anomalyTypes().toString());
    }

    @Property(tries = 400, seed = "20261124")
    void faultyHistory_checkedFromAnyCut_rulesOutNoMoreModels(@ForAll("any") GeneratorOptions generator,
                                                             @ForAll @DoubleRange(min = 0, max = 1) double cutAt,
                                                             @ForAll @LongRange(min = 0, max = 1000) long seed) {
        List<Op> history = CheckerMutator.mutate(ListAppendGenerator.generate(generator), 0.2,
                new SplittableRandom(seed));
        Verdict whole;
        try {
            whole = check(history, false);
        } catch (HistoryViolationException malformed) {
            return; // the mutation broke the history's protocol; nothing to compare
        }
        Verdict part = check(suffix(history, cut(history, cutAt)), true);
        Set<String> ruledOutByPart = ruledOut(part);
        Set<String> ruledOutByWhole = ruledOut(whole);
        assertTrue(ruledOutByWhole.containsAll(ruledOutByPart), () -> "the suffix rules out " + ruledOutByPart
                + " but the whole history only " + ruledOutByWhole + "; suffix anomalies " + part.anomalyTypes()
                + ", whole " + whole.anomalyTypes());
    }

    private static Set<String> ruledOut(Verdict v) {
        return new TreeSet<>(ConsistencyModels.impossibleModels(
                v.anomalyTypes().stream().map(t -> t.elleName()).collect(Collectors.toList())));
    }

    private static long cut(List<Op> history, double at) {
        return history.isEmpty() ? 0 : history.get((int) Math.min(history.size() - 1, at * history.size())).index();
    }

    /** The events from index {@code cut} on, without completions of transactions invoked before it. */
    static List<Op> suffix(List<Op> history, long cut) {
        Set<Long> openBeforeCut = new HashSet<>();
        List<Op> out = new ArrayList<>();
        for (Op op : history) {
            if (op.index() < cut) {
                if (op.type() == OpType.INVOKE) {
                    openBeforeCut.add(op.process());
                } else {
                    openBeforeCut.remove(op.process());
                }
            } else if (op.type() != OpType.INVOKE && openBeforeCut.remove(op.process())) {
                continue; // its invocation was cut off
            } else {
                out.add(op);
            }
        }
        return out;
    }

    private static Verdict check(List<Op> history, boolean truncated) {
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults().withModels(MODELS), new AtomTable());
        if (truncated) {
            checker.historyTruncated();
        }
        for (Op op : history) {
            checker.accept(op);
        }
        return checker.finish();
    }
}
