package io.isowatch.cli;

import io.isowatch.explain.PlainWords;
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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Where the demo's job delivers alerts: printed, added to the console's store, appended to the
 * alerts file when one is given, and counted for the summary. The job's writers call it from
 * several threads; each alert is handled whole. A job restored from a checkpoint delivers again
 * what it found after that checkpoint; such a repeat (same stable id) is dropped here, so each
 * finding reaches the reader once.
 *
 * <p>By default an alert is one line: its title (type and cycle) and its page on the console,
 * and only the first {@code lines} alerts are printed at all; after them one line says where the
 * rest are, and the progress lines count them. A weak level yields hundreds of alerts a run, and
 * a terminal full of them is read by nobody: the explanations are on the console and in the
 * alerts file. Verbose prints every alert with its whole explanation (the console sink's form).
 */
final class DemoAlerts implements Consumer<Alert> {

    private final PrintWriter out;
    private final boolean verbose;
    private final int lines;
    private final JsonLinesAlertSink file;
    private final FindingStore console;
    private final ConsoleLink link;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final AlertSink full;
    private final Set<String> seen = new HashSet<>();
    private final Map<String, Long> byType = new TreeMap<>();
    private volatile long count;
    /** Detection delays of every alert, those released at the end of the history marked so. */
    private final DelaySummary delays = new DelaySummary();

    /**
     * @param verbose every alert with its whole explanation; otherwise one line each, the first {@code lines} only
     * @param file    the alerts file's sink, or null
     * @param console the findings console's store, or null when the console is off
     * @param link    the console's address, or null
     */
    DemoAlerts(PrintWriter out, boolean verbose, int lines, JsonLinesAlertSink file, FindingStore console,
               ConsoleLink link) {
        if (lines < 0) {
            throw new IllegalArgumentException("lines must be >= 0, got " + lines);
        }
        this.out = out;
        this.verbose = verbose;
        this.lines = lines;
        this.file = file;
        this.console = console;
        this.link = link;
        this.full = new ConsoleSinkOptions(new PrintStream(buffer, true, StandardCharsets.UTF_8), true, link).open();
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
        if (verbose) {
            buffer.reset();
            full.accept(alert);
            out.print(buffer.toString(StandardCharsets.UTF_8));
        } else if (count <= lines) {
            out.println(oneLine(alert, link));
        } else if (count == lines + 1) {
            out.println("  (further alerts are counted in the progress lines, not printed; all are " + whereToRead() + ")");
        }
        out.flush();
    }

    /** {@code ALERT G2-item: T1 -rw-> T2 -rw-> T1, a cycle of 2 transactions (indices 3, 7)  http://…/findings/…}. */
    static String oneLine(Alert alert, ConsoleLink link) {
        PlainWords.Summary plain = PlainWords.of(alert.type(), alert.models());
        String words = plain == null ? "" : "; " + plain.name() + (plain.breaks().isEmpty() ? ""
                : ", breaks " + String.join(", ", plain.breaks()));
        return "ALERT " + alert.title() + words + (link == null ? "" : "  " + link.finding(alert.id()));
    }

    /** Where the whole explanations are, for a line that leaves them out. */
    String whereToRead() {
        List<String> where = new ArrayList<>();
        if (link != null) {
            where.add("explained and drawn at " + link.base() + "/");
        }
        if (file != null) {
            where.add("explained in the alerts file");
        }
        where.add("--verbose prints them in full");
        return String.join(", ", where);
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
