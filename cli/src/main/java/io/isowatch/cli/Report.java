package io.isowatch.cli;

import io.isowatch.anomaly.Finding;
import io.isowatch.checker.Verdict;
import io.isowatch.explain.Notation;
import io.isowatch.history.AtomTable;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertJson;
import io.isowatch.ui.FindingView;
import io.isowatch.ui.StaticReport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code index.html} into check's {@code -o} directory: the findings console's static
 * report of the verdict, which opens from {@code file://} with no server.
 *
 * <p>Each finding becomes the alert the job would send for it ({@link Alert#of}, detected now,
 * delay unknown), so the report shows exactly what the live console shows. A report holds at
 * most {@value #PER_TYPE} findings per anomaly type, in the order check reports them, to stay a
 * page a browser opens quickly; the {@code .txt} files beside it hold all of them.
 */
final class Report {

    static final String FILE = "index.html";
    static final int PER_TYPE = 500;

    private Report() {
    }

    /** Writes {@code dir/index.html}, with the pictures {@link Pictures#write} drew (a cycle without one has none). */
    static Path write(Path dir, String source, Verdict verdict, AtomTable atoms, Collection<String> models,
                      Map<Finding, String> svgs, Notation notation) {
        long now = System.currentTimeMillis();
        List<StaticReport.Entry> entries = new ArrayList<>();
        long findings = 0;
        for (List<Finding> ofType : verdict.anomalies().values()) {
            findings += ofType.size();
            for (Finding f : ofType.subList(0, Math.min(PER_TYPE, ofType.size()))) {
                FindingView view = FindingView.of(Alert.of(f, "", models, now, Alert.UNKNOWN_DELAY, atoms, notation));
                entries.add(new StaticReport.Entry(view, svgs.get(f)));
            }
        }
        Verdict.Stats s = verdict.stats();
        StaticReport.Summary summary = new StaticReport.Summary(source, verdict.valid().elleName(), List.copyOf(models),
                verdict.not(), verdict.alsoNot(), new StaticReport.Stats(s.txns(), s.ok(), s.info(), s.fail()), findings,
                AlertJson.rfc3339(now));
        Path file = dir.resolve(FILE);
        try {
            Files.createDirectories(dir);
            Files.writeString(file, StaticReport.html(summary, entries), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}
