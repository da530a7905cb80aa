package io.isowatch.gen;

import java.util.Locale;

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

    private final String elleName;

    KeyDistribution(String elleName) {
        this.elleName = elleName;
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
