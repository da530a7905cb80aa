package io.isowatch.cli;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.checker.Verdict;
import io.isowatch.explain.CycleDot;
import io.isowatch.explain.CycleSvg;
import io.isowatch.explain.FindingText;
import io.isowatch.explain.Notation;
import io.isowatch.history.AtomTable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes what {@code -o DIR} asks for, laid out as Elle lays out its directory: one
 * {@code <anomaly>.txt} of explanations per anomaly type, and for cycles
 * {@code <anomaly>/<n>.dot} and {@code <anomaly>/<n>.svg}. ({@link Report} adds the
 * {@code index.html} beside them.)
 */
final class Pictures {

    private Pictures() {
    }

    /**
     * What {@link #write} drew.
     *
     * @param skipped SVGs left out because their DOT exceeds {@code maxPlotBytes}
     * @param svgs    the SVG of each of the first {@link Report#PER_TYPE} cycles of every anomaly
     *                type (the ones the report shows), by finding identity, so the report does not draw them again
     */
    record Drawn(int skipped, Map<Finding, String> svgs) {
    }

    /** Writes the directory. */
    static Drawn write(Path dir, Verdict verdict, AtomTable atoms, long maxPlotBytes, Notation notation) {
        int skipped = 0;
        Map<Finding, String> svgs = new IdentityHashMap<>();
        try {
            Files.createDirectories(dir);
            for (Map.Entry<AnomalyType, List<Finding>> e : verdict.anomalies().entrySet()) {
                String type = e.getKey().elleName();
                StringBuilder text = new StringBuilder();
                int n = 0;
                for (Finding f : e.getValue()) {
                    text.append(type).append(" #").append(n).append('\n')
                            .append(FindingText.render(f, atoms, notation)).append("\n\n\n");
                    if (f instanceof Finding.Cycle cycle) {
                        Path sub = dir.resolve(type);
                        Files.createDirectories(sub);
                        byte[] dot = CycleDot.render(cycle, atoms).getBytes(StandardCharsets.UTF_8);
                        Files.write(sub.resolve(n + ".dot"), dot);
                        if (dot.length > maxPlotBytes) { // elle-cli's rule: the DOT's size decides
                            skipped++;
                        } else {
                            String svg = CycleSvg.render(cycle, atoms);
                            Files.writeString(sub.resolve(n + ".svg"), svg, StandardCharsets.UTF_8);
                            if (n < Report.PER_TYPE) {
                                svgs.put(f, svg);
                            }
                        }
                    }
                    n++;
                }
                Files.writeString(dir.resolve(type + ".txt"), text.toString(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Drawn(skipped, svgs);
    }
}
