package io.isowatch.bench;

import io.isowatch.job.DeadLetter;
import io.isowatch.job.FlinkAlertSink;
import io.isowatch.job.HistoryVerdict;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertSink;
import io.isowatch.sinks.DelaySummary;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmark's sinks: alerts are recorded with their detection delay, dead letters only
 * counted. They write to JVM-wide recorders, which works because {@link StreamBenchmark} runs
 * the job on a local cluster in its own JVM. Thread-safe.
 */
final class BenchSinks {

    /**
     * One alert as the benchmark keeps it; {@code completedAtMillis} is when its evidence was
     * complete (its last transaction's completion), {@code atEnd} whether it was released only
     * when its history ended ({@link Alert#releasedAtEnd()}).
     */
    record Recorded(long detectedAtMillis, long delayMillis, long arrivedAtMillis, long completedAtMillis, String type,
                    boolean atEnd) {
    }

    private static final List<Recorded> ALERTS = new ArrayList<>();
    private static final AtomicLong DEAD_LETTERS = new AtomicLong();
    private static final AtomicLong LATE_DEAD_LETTERS = new AtomicLong();
    private static final AtomicLong VERDICTS = new AtomicLong();

    private BenchSinks() {
    }

    /** The alert sink: records each alert's {@link Alert#detectionDelayMillis()} and its arrival time. */
    static Sink<Alert> alerts() {
        return new FlinkAlertSink(DelayRecorder::new);
    }

    /** The dead-letter sink: counts, by kind late or other. */
    static Sink<DeadLetter> deadLetters() {
        return new CountingDeadLetters();
    }

    /** The verdict sink: counts the histories settled at the end of the input. */
    static Sink<HistoryVerdict> verdicts() {
        return new CountingVerdicts();
    }

    static long verdictCount() {
        return VERDICTS.get();
    }

    /** Every alert recorded so far. */
    static List<Recorded> allAlerts() {
        synchronized (ALERTS) {
            return List.copyOf(ALERTS);
        }
    }

    static long deadLetterCount() {
        return DEAD_LETTERS.get();
    }

    static long lateDeadLetterCount() {
        return LATE_DEAD_LETTERS.get();
    }

    static int alertCount() {
        synchronized (ALERTS) {
            return ALERTS.size();
        }
    }

    /** The alerts whose detection time lies in [fromMillis, toMillis). */
    static List<Recorded> alertsDetected(long fromMillis, long toMillis) {
        List<Recorded> out = new ArrayList<>();
        synchronized (ALERTS) {
            for (Recorded r : ALERTS) {
                if (r.detectedAtMillis >= fromMillis && r.detectedAtMillis < toMillis) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /** p50, p99 and max of the values (milliseconds), nearest rank ({@link DelaySummary}); NaNs when empty. */
    static double[] percentiles(long[] values) {
        if (values.length == 0) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        long[] v = values.clone();
        Arrays.sort(v);
        return new double[] {DelaySummary.nearestRank(v, 0.50), DelaySummary.nearestRank(v, 0.99), v[v.length - 1]};
    }

    private static final class DelayRecorder implements AlertSink {
        @Override
        public void accept(Alert alert) {
            long now = System.currentTimeMillis();
            if (!alert.hasDetectionDelay()) {
                return;
            }
            long completed = alert.detectedAtMillis() - alert.detectionDelayMillis();
            synchronized (ALERTS) {
                ALERTS.add(new Recorded(alert.detectedAtMillis(), alert.detectionDelayMillis(), now, completed,
                        alert.type(), alert.releasedAtEnd()));
            }
        }

        @Override
        public void close() {
        }
    }

    private static final class CountingVerdicts implements Sink<HistoryVerdict> {
        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<HistoryVerdict> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(HistoryVerdict verdict, Context ctx) {
                    VERDICTS.incrementAndGet();
                }

                @Override
                public void flush(boolean endOfInput) {
                }

                @Override
                public void close() {
                }
            };
        }
    }

    private static final class CountingDeadLetters implements Sink<DeadLetter> {
        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<DeadLetter> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(DeadLetter letter, Context ctx) {
                    DEAD_LETTERS.incrementAndGet();
                    if (letter.kind() == DeadLetter.Kind.LATE_EVENT) {
                        LATE_DEAD_LETTERS.incrementAndGet();
                    }
                }

                @Override
                public void flush(boolean endOfInput) {
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
