package io.isowatch.gen;

/** Message templates for bad generator options and misuse, kept together so they read alike. */
final class GeneratorMessages {

    private GeneratorMessages() {
    }

    static String atLeast(String option, long min, long actual) {
        return option + " must be >= " + min + ", got " + actual;
    }

    static String atMost(String option, long max, long actual) {
        return option + " must be <= " + max + ", got " + actual;
    }

    static String probability(String option, double actual) {
        return option + " must be a probability in [0, 1], got " + actual;
    }

    static String lengthRange(int min, int max) {
        return "maxTxnLength must be >= minTxnLength, got minTxnLength " + min + " and maxTxnLength " + max
                + "; raise maxTxnLength or lower minTxnLength";
    }

    static String faultRates(double failRate, double infoRate) {
        return "failRate + infoRate must be <= 1, got failRate " + failRate + " and infoRate " + infoRate;
    }

    static String unknownKeyDistribution(String name) {
        return "unknown key distribution '" + name + "'; expected 'uniform' or 'exponential'";
    }

    static String tooManyToCollect(long txnCount, String generator) {
        return "txnCount " + txnCount + " is too large to collect into a list; iterate a " + generator + " instead";
    }

    static String exhausted(long txnCount) {
        return "the history of " + txnCount + " transactions is complete; check hasNext() before next()";
    }
}
