package io.isowatch.cli;

import java.io.PrintWriter;

/** A progress line on stderr for long runs: events, transactions per second, findings so far. */
final class Progress {

    private final PrintWriter out;
    private final String label;
    private final long start;
    private final long every;
    private long last;
    private boolean printed;

    Progress(PrintWriter out, String label, long start, long everyNanos) {
        this.out = out;
        this.label = label;
        this.start = start;
        this.every = everyNanos;
        this.last = start;
    }

    void update(long events, long txns, long findings) {
        if (out == null) {
            return;
        }
        long now = System.nanoTime();
        if (now - last < every) {
            return;
        }
        last = now;
        double seconds = (now - start) / 1e9;
        out.printf("%s: %,d events, %,d txns checked (%,.0f txn/s), %,d findings so far%n",
                label, events, txns, txns / seconds, findings);
        out.flush();
        printed = true;
    }

    void done() {
        if (printed) {
            out.flush();
        }
    }
}
