package io.isowatch.cli;

import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertSink;
import io.isowatch.sinks.ConsoleLink;
import io.isowatch.sinks.DelaySummary;
import io.isowatch.sinks.console.ConsoleSinkOptions;
import io.isowatch.sinks.file.JsonLinesAlertSink;
import io.isowatch.ui.FindingStore;
import io.isowatch.ui.FindingView;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Where the demo's job delivers alerts: printed by the console sink (the first few with their
 * full explanation, the rest as title and id only, so a run under a weak level stays readable,
 * each with its page in the findings console when that runs), added to the console's store,
 * appended to the alerts file when one is given, and counted for the summary. The job's writers
 * call it from several threads; each alert is handled whole. A job restored from a checkpoint
 * delivers again what it found after that checkpoint; such a repeat (same stable id) is dropped
 * here, so each finding reaches the reader once.
 */
final class DemoAlerts implements Consumer<Alert> {

    private final PrintWriter out;
    private final int fullAlerts;
    private final JsonLinesAlertSink file;
    private final FindingStore console;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final AlertSink full;
    private final AlertSink brief;
    private final Set<String> seen = new HashSet<>();
    private final Map<String, Long> byType = new TreeMap<>();
    private volatile long count;
    /** Detection delays of every alert, those released at the end of the history marked so. */
    private final DelaySummary delays = new DelaySummary();

    /**
     * @param file    the alerts file's sink, or null
     * @param console the findings console's store, or null when the console is off
     * @param link    the console's address, or null
     */
    DemoAlerts(PrintWriter out, int fullAlerts, JsonLinesAlertSink file, FindingStore console, ConsoleLink link) {
        this.out = out;
        this.fullAlerts = fullAlerts;
        this.file = file;
        this.console = console;
        PrintStream stream = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        this.full = new ConsoleSinkOptions(stream, true, link).open();
        this.brief = new ConsoleSinkOptions(stream, false, link).open();
    }

    @Override
    public synchronized void accept(Alert alert) {
        if (!seen.add(alert.id())) {
            return;
        }
        count++;
        byType.merge(alert.type(), 1L, Long::sum);
        delays.add(alert);
        if (file != null) {
            file.accept(alert);
        }
        if (console != null) {
            console.add(FindingView.of(alert));
        }
        buffer.reset();
        (count <= fullAlerts ? full : brief).accept(alert);
        out.print(buffer.toString(StandardCharsets.UTF_8));
        out.flush();
    }

    long count() {
        return count;
    }

    /**
     * The detection delays of every alert of the run, the drain's included, in one line ({@link
     * DelaySummary#line()}): {@code detection delay over 1,045 alerts: p50 100 ms, p99 1.2 s, max
     * 2.5 s; 3 released only at the end of the history}. Those are the alerts the job marked as
     * released by the end of the history (decision 0009), not every alert that arrived after the
     * clients stopped: a live finding of the last events is still live.
     */
    synchronized String delaySummary() {
        return delays.line();
    }

    /** The alerts so far by anomaly type, e.g. {@code 12 G2-item, 3 G-single-item}. */
    synchronized String byType() {
        StringBuilder text = new StringBuilder();
        byType.forEach((type, n) -> text.append(text.length() == 0 ? "" : ", ").append(n).append(' ').append(type));
        return text.toString();
    }
}
