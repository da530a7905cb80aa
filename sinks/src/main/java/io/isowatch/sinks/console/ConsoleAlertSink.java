package io.isowatch.sinks.console;

import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertJson;
import io.isowatch.sinks.AlertSink;
import io.isowatch.sinks.ConsoleLink;

import java.io.PrintStream;

/**
 * Prints each alert for a person to read:
 * <pre>
 * ALERT G2-item: T1 -rw-> T2 -rw-> T1, a cycle of 2 transactions (indices 3, 7)
 *   id 3f2a…, detected 2025-01-02T03:04:05.678Z, 12 ms after its last transaction; checked against serializable
 *   see http://127.0.0.1:8642/findings/3f2a…      (only when the options name a findings console)
 *   Let:
 *     T1 = …
 * </pre>
 * then a blank line. The explanation is indented by two spaces and left out when the options
 * say so. The stream is flushed after each alert and never closed. Thread-safe.
 */
public final class ConsoleAlertSink implements AlertSink {

    private final PrintStream out;
    private final boolean explanations;
    private final ConsoleLink console;

    public ConsoleAlertSink(ConsoleSinkOptions options) {
        this.out = options.out();
        this.explanations = options.explanations();
        this.console = options.console();
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
        if (console != null) {
            sb.append("  see ").append(console.finding(alert.id())).append('\n');
        }
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
