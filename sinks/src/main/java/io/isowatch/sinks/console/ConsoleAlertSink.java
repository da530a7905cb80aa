package io.isowatch.sinks.console;

import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertJson;
import io.isowatch.sinks.AlertSink;

import java.io.PrintStream;

/**
 * Prints each alert for a person to read:
 * <pre>
 * ALERT G2-item: T1 -rw-> T2 -rw-> T1, a cycle of 2 transactions (indices 3, 7)
 *   id 3f2a…, detected 2025-01-02T03:04:05.678Z, 12 ms after its last transaction; checked against serializable
 *   Let:
 *     T1 = …
 * </pre>
 * then a blank line. The explanation is indented by two spaces and left out when the options
 * say so. The stream is flushed after each alert and never closed. Thread-safe.
 */
public final class ConsoleAlertSink implements AlertSink {

    private final PrintStream out;
    private final boolean explanations;

    public ConsoleAlertSink(ConsoleSinkOptions options) {
        this.out = options.out();
        this.explanations = options.explanations();
    }

    @Override
    public void accept(Alert alert) {
        StringBuilder sb = new StringBuilder(256);
        sb.append("ALERT ").append(alert.title()).append('\n');
        sb.append("  id ").append(alert.id()).append(", detected ").append(AlertJson.rfc3339(alert.detectedAtMillis()));
        if (alert.hasDetectionDelay()) {
            sb.append(", ").append(alert.detectionDelayMillis()).append(" ms after its last transaction");
        }
        if (!alert.models().isEmpty()) {
            sb.append("; checked against ").append(String.join(", ", alert.models()));
        }
        sb.append('\n');
        if (explanations) {
            for (String line : alert.explanation().split("\n", -1)) {
                sb.append("  ").append(line).append('\n');
            }
        }
        sb.append('\n');
        synchronized (out) {
            out.print(sb);
            out.flush();
        }
    }

    /** Flushes the stream; it stays open. */
    @Override
    public void close() {
        out.flush();
    }
}
