package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.Finding;
import io.isowatch.gen.GeneratorArbitraries;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.gen.RegisterGenerator;
import io.isowatch.history.AgentMerge;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ground truth for decision 0021: a store that is strict-serializable by construction, recorded
 * by several agents whose clocks differ pairwise by at most the clock uncertainty, is never
 * found at fault, at strict serializability or weaker; and a clock difference beyond the
 * uncertainty can make a false realtime anomaly, which is why the uncertainty must be set.
 */
class FleetSoundnessProperties {

    private static final long US = 1_000;

    @Provide
    Arbitrary<GeneratorOptions> correct() {
        // Few keys and many clients: a false alarm needs a transaction that read a key just before
        // another's write to it took effect, invoked within the clocks' difference of that one's
        // completion; with the generator's spread of keys such pairs were too rare to catch a
        // checker that used half the uncertainty.
        return Combinators.combine(GeneratorArbitraries.smallHistories(150), Arbitraries.integers().between(1, 8),
                        Arbitraries.integers().between(1, 2))
                .as((o, concurrency, keys) -> o.toBuilder().staleReadRate(0).concurrency(concurrency).keyCount(keys)
                        .build());
    }

    @Provide
    Arbitrary<String> models() {
        return Arbitraries.of("strict-serializable", "serializable", "snapshot-isolation");
    }

    /**
     * The generator's steps are 1 to 5 µs, so uncertainties up to 300 µs and offsets within them
     * place agents' clocks several transactions apart.
     */
    @Property(tries = 400, seed = "20261221")
    void correctStore_agentsWithinTheUncertainty_haveNoFinding(
            @ForAll("correct") GeneratorOptions options, @ForAll @IntRange(min = 1, max = 4) int agents,
            @ForAll @LongRange(min = 0, max = 300_000) long epsilonNanos, @ForAll long offsetSeed,
            @ForAll("models") String model, @ForAll boolean registers) {
        List<Op> history = registers ? RegisterGenerator.generate(options) : ListAppendGenerator.generate(options);
        long[] offsets = new long[agents];
        SplittableRandom random = new SplittableRandom(offsetSeed);
        for (int a = 0; a < agents; a++) {
            // Each in [0, ε], so any two differ by at most ε; half of them at an end, where two
            // clocks differ by ε exactly, the case that tests the strict inequality.
            offsets[a] = switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> epsilonNanos;
                default -> epsilonNanos == 0 ? 0 : random.nextLong(epsilonNanos + 1);
            };
        }
        List<AgentMerge.Merged> merged = FleetHistories.splitAndMerge(history, options.concurrency(), offsets);
        CheckerOptions checked = CheckerOptions.defaults().toBuilder()
                .consistencyModels(Set.of(ConsistencyModel.of(model)))
                .workload(registers ? Workload.RW_REGISTER : Workload.LIST_APPEND).build();
        List<Finding> streamed = new ArrayList<>();
        IncrementalChecker checker = FleetHistories.fleetChecker(checked, Duration.ofNanos(epsilonNanos), merged,
                streamed);
        Verdict v = checker.finish();
        assertEquals(List.of(), FleetHistories.anomalies(streamed), () -> "offsets " + java.util.Arrays.toString(offsets)
                + ", ε " + epsilonNanos + " ns\n" + history);
        assertNotEquals(Validity.FALSE, v.valid());
    }

    /**
     * The counter-case, by construction. A correct store: T1 (agent b) appends 1 to x between
     * true times 0 and 10 µs, taking effect at 9; T2 (agent a) reads x empty between 5 and 8,
     * taking effect at 6, before T1; T3 (agent b) reads [1] at 20 to 21. Agent a's clock runs
     * {@code skew} ahead of b's, so T2 seems invoked at 5 + skew, after T1's completion at 10
     * once skew > 5 µs. With an uncertainty below skew - 5 µs, T1 precedes T2 in real time, and
     * T2's read of the empty list before T1's append closes a cycle: a realtime anomaly that is not
     * there. With an uncertainty at least the skew, nothing is found.
     */
    @Property(tries = 100, seed = "20261222")
    void aClockDifferenceBeyondTheUncertainty_makesAFalseRealtimeAnomaly(
            @ForAll @LongRange(min = 6, max = 1_000) long skewMicros,
            @ForAll @IntRange(min = 0, max = 100) int percentOfRoom) {
        long skew = skewMicros * US;
        // Too small: anything below skew - 5 µs, the gap the skewed clocks show.
        long tooSmall = (skew - 5 * US - 1) * percentOfRoom / 100;
        List<AgentMerge.Merged> merged = staleLookingHistory(skew);
        List<Finding> wrong = new ArrayList<>();
        Verdict v = FleetHistories.fleetChecker(CheckerOptions.defaults(), Duration.ofNanos(tooSmall), merged, wrong)
                .finish();
        assertEquals(Validity.FALSE, v.valid());
        assertTrue(v.anomalyTypes().stream().allMatch(t -> t.elleName().endsWith("-realtime")), v.anomalyTypes()::toString);
        assertFalse(v.anomalyTypes().isEmpty());

        List<Finding> right = new ArrayList<>();
        Verdict ok = FleetHistories.fleetChecker(CheckerOptions.defaults(), Duration.ofNanos(skew), merged, right)
                .finish();
        assertEquals(List.of(), FleetHistories.anomalies(right));
        assertNotEquals(Validity.FALSE, ok.valid());
    }

    private static List<AgentMerge.Merged> staleLookingHistory(long skew) {
        long x = 1;
        List<Op> history = List.of(
                new Op(0, 0, OpType.INVOKE, 1, List.of(new MicroOp.Append(x, 1))),
                new Op(1, 5 * US, OpType.INVOKE, 0, List.of(new MicroOp.Read(x, null))),
                new Op(2, 8 * US, OpType.OK, 0, List.of(new MicroOp.Read(x, new long[0]))),
                new Op(3, 10 * US, OpType.OK, 1, List.of(new MicroOp.Append(x, 1))),
                new Op(4, 20 * US, OpType.INVOKE, 1, List.of(new MicroOp.Read(x, null))),
                new Op(5, 21 * US, OpType.OK, 1, List.of(new MicroOp.Read(x, new long[] {1}))));
        // Two client threads, process p on agent p: agent 0 (T2's) runs skew ahead.
        return FleetHistories.splitAndMerge(history, 2, new long[] {skew, 0});
    }
}
