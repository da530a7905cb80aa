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
        assertRejected("txnCount", "-1", () -> D.withTxnCount(-1));
        assertRejected("concurrency", "0", () -> D.withConcurrency(0));
        assertRejected("keyCount", "0", () -> D.withKeyCount(0));
        assertRejected("minTxnLength", "0", () -> D.withTxnLength(0, 3));
        assertRejected("maxTxnLength", "2", () -> D.withTxnLength(3, 2));
        assertRejected("maxWritesPerKey", "0", () -> D.withMaxWritesPerKey(0));
        assertRejected("readProbability", "1.5", () -> D.withReadProbability(1.5));
        assertRejected("readProbability", "NaN", () -> D.withReadProbability(Double.NaN));
        assertRejected("failRate", "-0.1", () -> D.withFailRate(-0.1));
        assertRejected("infoRate", "2.0", () -> D.withInfoRate(2));
        assertRejected("infoRate", "0.6", () -> D.withFaultRates(0.5, 0.6));
        assertThrows(NullPointerException.class, () -> D.withKeyDistribution(null));
    }

    @Test
    void withers_changeOneOption() {
        GeneratorOptions o = D.withTxnCount(5).withConcurrency(2).withKeyCount(3).withTxnLength(2, 6)
                .withMaxWritesPerKey(7).withReadProbability(0.25).withKeyDistribution(KeyDistribution.UNIFORM)
                .withFaultRates(0.1, 0.2).withSeed(99);
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
