package io.isowatch.sinks;

import java.util.Arrays;
import java.util.Locale;

/**
 * How late a run's findings were: the detection delays of every alert with a known delay,
 * summarised as nearest-rank p50, p99 and max, and how many of them were released only when
 * their history ended ({@link Alert#releasedAtEnd()}). The demo's summary line and the stream
 * benchmark's report are both this, so the two measure "live" the same way.
 *
 * <p>Not thread-safe: callers that add from several threads hold their own lock.
 */
public final class DelaySummary {

    private long[] delays = new long[256];
    private int count;
    private int atEnd;

    /** Counts {@code alert} when its delay is known; an unknown delay is left out (no time to measure). */
    public void add(Alert alert) {
        if (alert.hasDetectionDelay()) {
            add(alert.detectionDelayMillis(), alert.releasedAtEnd());
        }
    }

    /** Counts one delay, in ms, and whether it was released at the end of its history. */
    public void add(long delayMillis, boolean releasedAtEnd) {
        if (delayMillis < 0) {
            throw new IllegalArgumentException("a detection delay is >= 0 ms, got " + delayMillis);
        }
        if (count == delays.length) {
            delays = Arrays.copyOf(delays, count * 2);
        }
        delays[count++] = delayMillis;
        if (releasedAtEnd) {
            atEnd++;
        }
    }

    /** Delays counted. */
    public int count() {
        return count;
    }

    /** Of those, the alerts released only when their history ended. */
    public int releasedAtEnd() {
        return atEnd;
    }

    /** p50, p99 and max in ms, nearest rank; {@code null} when nothing was counted. */
    public long[] p50p99max() {
        if (count == 0) {
            return null;
        }
        long[] sorted = Arrays.copyOf(delays, count);
        Arrays.sort(sorted);
        return new long[] {nearestRank(sorted, 0.50), nearestRank(sorted, 0.99), sorted[count - 1]};
    }

    /**
     * One line, e.g. {@code detection delay over 1,045 alerts: p50 100 ms, p99 1.2 s, max 2.5 s;
     * 3 released only at the end of the history}; empty when nothing was counted.
     */
    public String line() {
        long[] p = p50p99max();
        if (p == null) {
            return "";
        }
        return String.format(Locale.ROOT, "detection delay over %,d alerts: p50 %s, p99 %s, max %s; %,d released only at"
                + " the end of the history", count, millis(p[0]), millis(p[1]), millis(p[2]), atEnd);
    }

    /** The nearest-rank quantile {@code q} (0 to 1) of sorted, non-empty values. */
    public static long nearestRank(long[] sorted, double q) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("the quantile of no values");
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
    }

    /** {@code 120 ms} below a second, {@code 1.2 s} from one on. */
    public static String millis(long ms) {
        return ms < 1000 ? ms + " ms" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
