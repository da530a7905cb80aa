package io.isowatch.cli;

import java.io.PrintWriter;

/**
 * A progress line on stderr for long runs: events, transactions per second, and the findings so
 * far in the verdict's terms: how many break the checked models, and how many they allow (which
 * leave the verdict true).
 */
final class Progress {

    private final PrintWriter out;
    private final String label;
    private final String models;
    private final long start;
    private final long every;
    private long last;
    private boolean printed;

    /** @param models the checked models, as the verdict names them (e.g. "snapshot-isolation") */
    Progress(PrintWriter out, String label, String models, long start, long everyNanos) {
        this.out = out;
        this.label = label;
        this.models = models;
        this.start = start;
        this.every = everyNanos;
        this.last = start;
    }

    void update(long events, long txns, long findings, long forbidden) {
        if (out == null) {
            return;
        }
        long now = System.nanoTime();
        if (now - last < every) {
            return;
        }
        last = now;
        double seconds = (now - start) / 1e9;
        out.println(line(label, models, events, txns, txns / seconds, findings, forbidden));
        out.flush();
        printed = true;
    }

    /** One progress line; findings the models allow are named as such, so that a valid verdict after them reads right. */
    static String line(String label, String models, long events, long txns, double rate, long findings, long forbidden) {
        String found = findings == 0 ? "no findings so far"
                : String.format("%,d against %s, %,d %s", forbidden, models, findings - forbidden,
                        models.contains(",") ? "they allow" : "it allows");
        return String.format("%s: %,d events, %,d txns checked (%,.0f txn/s); %s", label, events, txns, rate, found);
    }

    void done() {
        if (printed) {
            out.flush();
        }
    }
}
