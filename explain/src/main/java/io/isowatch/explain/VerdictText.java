package io.isowatch.explain;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AtomTable;

import java.util.List;

/**
 * A verdict as the human-readable default output of {@code isowatch check}:
 *
 * <pre>
 * valid: false
 * anomaly types: G-single-item, G1a
 * not: snapshot-isolation
 * also not: serializable, strict-serializable
 *
 * G-single-item: T1 -wr-&gt; T2 -rw-&gt; T1, a cycle of 2 transactions (indices 3, 7)
 * Let:
 *   ...
 *
 * stats: 10 txns (8 ok, 1 info, 1 fail), 20 ops, 15 edges
 * </pre>
 *
 * Lines for empty lists (anomaly types, not, also not) are left out; a valid verdict is its first
 * line and the stats. Findings appear type by type, each as its title and explanation, separated
 * by blank lines.
 */
public final class VerdictText {

    private VerdictText() {
    }

    /** Every finding of the verdict; ends with a newline. */
    public static String render(Verdict v, AtomTable atoms) {
        return render(v, atoms, Integer.MAX_VALUE);
    }

    /**
     * At most {@code perType} findings of each type, followed by a line saying how many were left
     * out, so a history with thousands of G1a stays readable.
     */
    public static String render(Verdict v, AtomTable atoms, int perType) {
        if (perType < 0) {
            throw new IllegalArgumentException("perType must be >= 0, got " + perType);
        }
        StringBuilder sb = new StringBuilder("valid: ").append(v.valid().elleName()).append('\n');
        if (!v.anomalyTypes().isEmpty()) {
            sb.append("anomaly types: ")
                    .append(String.join(", ", v.anomalyTypes().stream().map(AnomalyType::elleName).toList()))
                    .append('\n');
        }
        if (!v.not().isEmpty()) {
            sb.append("not: ").append(String.join(", ", v.not())).append('\n');
        }
        if (!v.alsoNot().isEmpty()) {
            sb.append("also not: ").append(String.join(", ", v.alsoNot())).append('\n');
        }
        for (AnomalyType t : VerdictJson.types(v)) {
            List<Finding> fs = v.anomalies().get(t);
            int shown = Math.min(perType, fs.size());
            for (int i = 0; i < shown; i++) {
                sb.append('\n').append(FindingText.title(fs.get(i))).append('\n')
                        .append(FindingText.render(fs.get(i), atoms)).append('\n');
            }
            if (shown < fs.size()) {
                sb.append("\n... and ").append(fs.size() - shown).append(" more ").append(t.elleName())
                        .append('\n');
            }
        }
        Verdict.Stats s = v.stats();
        return sb.append('\n').append("stats: ").append(s.txns()).append(" txns (").append(s.ok()).append(" ok, ")
                .append(s.info()).append(" info, ").append(s.fail()).append(" fail), ").append(s.ops())
                .append(" ops, ").append(s.edges()).append(" edges\n").toString();
    }
}
