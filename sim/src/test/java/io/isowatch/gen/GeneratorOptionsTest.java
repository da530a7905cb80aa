package io.isowatch.gen;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GeneratorOptionsTest {

    private static final GeneratorOptions D = GeneratorOptions.defaults();

    @Test
    void defaults_areElleLike() {
        assertEquals(10, D.concurrency());
        assertEquals(10, D.keyCount());
        assertEquals(1, D.minTxnLength());
        assertEquals(4, D.maxTxnLength());
        assertEquals(32, D.maxWritesPerKey());
        assertEquals(0.5, D.readProbability());
        assertEquals(KeyDistribution.EXPONENTIAL, D.keyDistribution());
        assertEquals(0, D.failRate());
        assertEquals(0, D.infoRate());
    }

    @Test
    void badOptions_areRejectedByNameAndValue() {
        assertRejected("txnCount", "-1", () -> D.toBuilder().txnCount(-1).build());
        assertRejected("concurrency", "0", () -> D.toBuilder().concurrency(0).build());
        assertRejected("keyCount", "0", () -> D.toBuilder().keyCount(0).build());
        assertRejected("minTxnLength", "0", () -> D.toBuilder().txnLength(0, 3).build());
        assertRejected("maxTxnLength", "2", () -> D.toBuilder().txnLength(3, 2).build());
        assertRejected("maxWritesPerKey", "0", () -> D.toBuilder().maxWritesPerKey(0).build());
        assertRejected("readProbability", "1.5", () -> D.toBuilder().readProbability(1.5).build());
        assertRejected("readProbability", "NaN", () -> D.toBuilder().readProbability(Double.NaN).build());
        assertRejected("failRate", "-0.1", () -> D.toBuilder().failRate(-0.1).build());
        assertRejected("infoRate", "2.0", () -> D.toBuilder().infoRate(2).build());
        assertRejected("infoRate", "0.6", () -> D.toBuilder().faultRates(0.5, 0.6).build());
        assertThrows(NullPointerException.class, () -> D.toBuilder().keyDistribution(null).build());
    }

    @Test
    void withers_changeOneOption() {
        GeneratorOptions o = D.toBuilder().txnCount(5).concurrency(2).keyCount(3).txnLength(2, 6)
                .maxWritesPerKey(7).readProbability(0.25).keyDistribution(KeyDistribution.UNIFORM)
                .faultRates(0.1, 0.2).seed(99).build();
        assertEquals(new GeneratorOptions(5, 2, 3, 2, 6, 7, 0.25, KeyDistribution.UNIFORM, 0.1, 0.2, 99), o);
    }

    @Test
    void keyDistribution_parsesElleNames() {
        assertEquals(KeyDistribution.UNIFORM, KeyDistribution.fromElleName("uniform"));
        assertEquals(KeyDistribution.EXPONENTIAL, KeyDistribution.fromElleName("Exponential"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KeyDistribution.fromElleName("zipf"));
        assertTrue(e.getMessage().contains("zipf"), e.getMessage());
    }

    private static void assertRejected(String option, String value, Executable build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build);
        assertTrue(e.getMessage().contains(option) && e.getMessage().contains(value),
                () -> "message should name " + option + " and " + value + ": " + e.getMessage());
    }
}
