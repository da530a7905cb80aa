package io.isowatch.gen;

import java.util.Locale;
import java.util.SplittableRandom;

/** How a transaction picks each micro-op's key from the pool of active keys, as Elle's {@code rand-key}. */
public enum KeyDistribution {
    /** Every active key is equally likely. */
    UNIFORM("uniform"),
    /**
     * Pool slot {@code i} is chosen with probability proportional to {@code 2^i} (Elle's
     * {@code :exponential} with its default base 2), so the last slots are hot. A retired key's
     * replacement takes its slot, and with it the slot's heat.
     */
    EXPONENTIAL("exponential");

    private static final double LN_2 = StrictMath.log(2);

    private final String elleName;

    KeyDistribution(String elleName) {
        this.elleName = elleName;
    }

    /**
     * Picks one of {@code slots} pool slots as Elle's {@code rand-key} does: the one choice of a
     * key that the generator ({@code gen}) and the agent's workloads share.
     */
    public int pickSlot(SplittableRandom random, int slots) {
        return this == UNIFORM ? random.nextInt(slots) : exponentialSlot(random.nextDouble(), slots);
    }

    /**
     * Elle's exponential choice with base 2: {@code floor(log2(u * scale + 2) - 1)} with
     * {@code scale = 2 (2^n - 1)}, which picks slot {@code i} with probability
     * {@code 2^i / (2^n - 1)}. Rewritten as {@code n + log2(u + (1 - u) 2^-n)} because
     * {@code 2^n} overflows a double past about a thousand keys; StrictMath keeps the result
     * identical on every JVM, so a seed means the same history everywhere.
     */
    static int exponentialSlot(double u, int n) {
        double x = u + (1 - u) * StrictMath.scalb(1.0, -n);
        if (x <= 0) {
            return 0;
        }
        double slot = Math.floor(n + StrictMath.log(x) / LN_2);
        if (slot < 0) {
            return 0;
        }
        return slot >= n ? n - 1 : (int) slot;
    }

    /** The name Elle uses for this distribution: {@code uniform} or {@code exponential}. */
    public String elleName() {
        return elleName;
    }

    /**
     * Parses an Elle name, case-insensitively.
     *
     * @throws IllegalArgumentException when the name is neither {@code uniform} nor {@code exponential}
     */
    public static KeyDistribution fromElleName(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "uniform": return UNIFORM;
            case "exponential": return EXPONENTIAL;
            default: throw new IllegalArgumentException(GeneratorMessages.unknownKeyDistribution(name));
        }
    }
}
