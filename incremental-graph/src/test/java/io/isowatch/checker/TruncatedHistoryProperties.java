package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.gen.GeneratorArbitraries;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;

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
 * not rule out. The cut drops every event before an index, exactly as the job does; the checker
 * itself skips the completions of transactions invoked before the cut.
 */
class TruncatedHistoryProperties {

    private static final Set<ConsistencyModel> MODELS = Set.of(ConsistencyModel.STRICT_SERIALIZABLE);

    @Property(tries = 300, seed = "20261123")
    void correctHistory_checkedFromAnyCut_staysValid(@ForAll(supplier = GeneratorArbitraries.Correct.class) GeneratorOptions generator,
                                                    @ForAll @DoubleRange(min = 0, max = 1) double cutAt) {
        List<Op> history = ListAppendGenerator.generate(generator);
        long cut = cut(history, cutAt);
        IncrementalChecker checker = checker(true);
        Verdict v = check(checker, suffix(history, cut));
        assertEquals(Validity.TRUE, v.valid(), () -> v.anomalyTypes().toString());
        assertEquals(cutOffCompletions(history, cut), checker.cutOffCompletions(),
                "completions of transactions invoked before the cut are skipped, and only they");
    }

    @Property(tries = 400, seed = "20261124")
    void faultyHistory_checkedFromAnyCut_rulesOutNoMoreModels(@ForAll(supplier = GeneratorArbitraries.Any.class) GeneratorOptions generator,
                                                             @ForAll @DoubleRange(min = 0, max = 1) double cutAt,
                                                             @ForAll @LongRange(min = 0, max = 1000) long seed) {
        List<Op> history = CheckerMutator.mutate(ListAppendGenerator.generate(generator), 0.2,
                new SplittableRandom(seed));
        Verdict whole;
        try {
            whole = check(checker(false), history);
        } catch (HistoryViolationException malformed) {
            return; // the mutation broke the history's protocol; nothing to compare
        }
        Verdict part = check(checker(true), suffix(history, cut(history, cutAt)));
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

    /** The events from index {@code cut} on, as the job feeds a checker started at a cut. */
    static List<Op> suffix(List<Op> history, long cut) {
        return history.stream().filter(op -> op.index() >= cut).collect(Collectors.toList());
    }

    /** How many events of the suffix complete a transaction invoked before the cut. */
    static long cutOffCompletions(List<Op> history, long cut) {
        Set<Long> openBeforeCut = new HashSet<>();
        long cutOff = 0;
        for (Op op : history) {
            if (op.index() < cut) {
                if (op.type() == OpType.INVOKE) {
                    openBeforeCut.add(op.process());
                } else {
                    openBeforeCut.remove(op.process());
                }
            } else if (op.type() != OpType.INVOKE && openBeforeCut.remove(op.process())) {
                cutOff++;
            }
        }
        return cutOff;
    }

    private static IncrementalChecker checker(boolean truncated) {
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults().toBuilder()
                .consistencyModels(MODELS).build(), new AtomTable());
        if (truncated) {
            checker.historyTruncated();
        }
        return checker;
    }

    private static Verdict check(IncrementalChecker checker, List<Op> history) {
        for (Op op : history) {
            checker.accept(op);
        }
        return checker.finish();
    }
}
