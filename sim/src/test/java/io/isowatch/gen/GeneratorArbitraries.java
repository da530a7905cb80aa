package io.isowatch.gen;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ArbitrarySupplier;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * jqwik arbitraries of generator options, for property tests that want small, strict-serializable
 * list-append histories. Every option shrinks towards the plainest history: one transaction, one
 * process, one key, no faults.
 */
public final class GeneratorArbitraries {

    private GeneratorArbitraries() {
    }

    /**
     * Options for small histories: 1..60 transactions by 1..5 processes over 1..4 keys, 1..6
     * micro-ops each, 1..8 appends per key before retirement, fail and info rates in [0, 0.3],
     * either key distribution and any seed.
     */
    public static Arbitrary<GeneratorOptions> smallHistories() {
        return smallHistories(60);
    }

    /** As {@link #smallHistories()}, with at most {@code maxTxnCount} transactions. */
    public static Arbitrary<GeneratorOptions> smallHistories(int maxTxnCount) {
        Arbitrary<Tuple.Tuple2<Integer, Integer>> lengths = Combinators.combine(
                Arbitraries.integers().between(1, 3), Arbitraries.integers().between(0, 3))
                .as((min, extra) -> Tuple.of(min, min + extra));
        Arbitrary<Tuple.Tuple2<Double, Double>> faults = Combinators.combine(rate(), rate()).as(Tuple::of);
        return Builders.withBuilder(() -> GeneratorOptions.defaults().toBuilder())
                .use(Arbitraries.longs().between(1, maxTxnCount)).in(GeneratorOptions.Builder::txnCount)
                .use(Arbitraries.integers().between(1, 5)).in(GeneratorOptions.Builder::concurrency)
                .use(Arbitraries.integers().between(1, 4)).in(GeneratorOptions.Builder::keyCount)
                .use(lengths).in((options, range) -> options.txnLength(range.get1(), range.get2()))
                .use(Arbitraries.integers().between(1, 8)).in(GeneratorOptions.Builder::maxWritesPerKey)
                .use(Arbitraries.doubles().between(0, 1).ofScale(2)).in(GeneratorOptions.Builder::readProbability)
                .use(Arbitraries.of(KeyDistribution.class)).in(GeneratorOptions.Builder::keyDistribution)
                .use(faults).in((options, rates) -> options.faultRates(rates.get1(), rates.get2()))
                .use(Arbitraries.longs()).in(GeneratorOptions.Builder::seed)
                .build(GeneratorOptions.Builder::build);
    }

    private static Arbitrary<Double> rate() {
        return Arbitraries.doubles().between(0, 0.3).ofScale(3);
    }

    /**
     * Small histories from a store that is correct by construction (no stale reads), for
     * {@code @ForAll(supplier = GeneratorArbitraries.Correct.class)}.
     */
    public static final class Correct implements ArbitrarySupplier<GeneratorOptions> {
        @Override
        public Arbitrary<GeneratorOptions> get() {
            return smallHistories(60).map(o -> o.toBuilder().staleReadRate(0).build());
        }
    }

    /** Small histories, correct or not, for {@code @ForAll(supplier = GeneratorArbitraries.Any.class)}. */
    public static final class Any implements ArbitrarySupplier<GeneratorOptions> {
        @Override
        public Arbitrary<GeneratorOptions> get() {
            return smallHistories(60);
        }
    }
}
