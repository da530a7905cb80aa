package io.isowatch.gen;

import io.isowatch.config.OptionDeclaration;
import io.isowatch.config.ValueType;
import io.isowatch.config.ValueTypes;

import java.util.List;

/**
 * The transaction shape's options (Elle's {@code wr-txns} options), declared once for the three
 * commands that generate transactions: {@code gen} (simulated), {@code agent run} (against a
 * database) and {@code demo} (the embedded store, live). {@link TxnShape#ELLE} holds their defaults.
 */
public final class TxnShapeDeclarations {

    private static final String GEN = "gen";
    private static final String AGENT_RUN = "agent run";
    private static final String DEMO = "demo";
    private static final ValueType<Integer> POSITIVE = ValueTypes.integer(1, Integer.MAX_VALUE);

    /**
     * The demo differs on purpose: it must show an anomaly within seconds at a modest rate, and
     * fewer keys mean more transactions meet on one.
     */
    public static final OptionDeclaration<Integer> KEYS = OptionDeclaration.key("keys", POSITIVE).defaultValue(10)
            .doc("keys active at any moment; fewer keys mean more contention")
            .flags(List.of("--keys"), GEN, AGENT_RUN, DEMO)
            .commandDefault(DEMO, 5, "so that snapshot isolation's write skew shows within seconds")
            .build();

    public static final OptionDeclaration<Integer> MAX_WRITES_PER_KEY = OptionDeclaration
            .key("max-writes-per-key", POSITIVE).defaultValue(32)
            .doc("writes a key takes before it is retired for a fresh one")
            .flags(List.of("--max-writes-per-key"), GEN, AGENT_RUN, DEMO).build();

    public static final OptionDeclaration<Integer> MIN_TXN_LENGTH = OptionDeclaration
            .key("min-txn-length", POSITIVE).defaultValue(1)
            .doc("fewest micro-ops per transaction")
            .flags(List.of("--min-txn-length"), GEN, AGENT_RUN, DEMO).build();

    public static final OptionDeclaration<Integer> MAX_TXN_LENGTH = OptionDeclaration
            .key("max-txn-length", POSITIVE).defaultValue(4)
            .doc("most micro-ops per transaction, at least `--min-txn-length`")
            .flags(List.of("--max-txn-length"), GEN, AGENT_RUN, DEMO).build();

    public static final OptionDeclaration<Double> READ_PROBABILITY = OptionDeclaration
            .key("read-probability", ValueTypes.decimal(0, 1)).defaultValue(0.5)
            .doc("chance a micro-op is a read rather than a write")
            .flags(List.of("--read-probability"), GEN, AGENT_RUN, DEMO).build();

    public static final OptionDeclaration<String> KEY_DISTRIBUTION = OptionDeclaration
            .key("key-distribution", ValueTypes.oneOf("uniform", "exponential")).defaultValue("exponential")
            .doc("how a micro-op picks among the active keys: `exponential` makes a few keys hot, as Elle's generator")
            .flags(List.of("--key-distribution"), GEN, AGENT_RUN, DEMO).build();

    /** The shape's options, in the docs' order. */
    public static final List<OptionDeclaration<?>> ALL = List.of(KEYS, MAX_WRITES_PER_KEY, MIN_TXN_LENGTH,
            MAX_TXN_LENGTH, READ_PROBABILITY, KEY_DISTRIBUTION);

    private TxnShapeDeclarations() {
    }
}
