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
     * The verdict without explanations, a few lines however many findings it holds: validity,
     * the findings counted by type, the models they rule out, and the stats. Ends with a newline.
     *
     * <pre>
     * valid: false
     * anomalies: 326 G2-item, 36 G2-item-realtime
     * not: repeatable-read, serializable
     * also not: strict-serializable
     * stats: 17732 txns (13021 ok, 0 info, 4711 fail), 35464 ops, 54199 edges
     * </pre>
     */
    public static String brief(Verdict v) {
        StringBuilder sb = new StringBuilder("valid: ").append(v.valid().elleName()).append('\n');
        if (!v.anomalyTypes().isEmpty()) {
            sb.append("anomalies: ");
            String sep = "";
            for (AnomalyType t : VerdictJson.types(v)) {
                sb.append(sep).append(v.anomalies().get(t).size()).append(' ').append(t.elleName());
                sep = ", ";
            }
            sb.append('\n');
        }
        models(sb, v);
        return stats(sb, v).toString();
    }

    /**
     * At most {@code perType} findings of each type, followed by a line saying how many were left
     * out, so a history with thousands of G1a stays readable.
     */
    public static String render(Verdict v, AtomTable atoms, int perType) {
        return render(v, atoms, perType, null);
    }

    /** As {@link #render(Verdict, AtomTable, int)}, in the workload's notation (null: guessed per finding). */
    public static String render(Verdict v, AtomTable atoms, int perType, Notation n) {
        return render(v, atoms, perType, n, null);
    }

    /**
     * As {@link #render(Verdict, AtomTable, int, Notation)}; with the models checked, each
     * finding's title is followed by what it is in plain words ({@link PlainWords}).
     */
    public static String render(Verdict v, AtomTable atoms, int perType, Notation n, java.util.Collection<String> models) {
        if (perType < 0) {
            throw new IllegalArgumentException("perType must be >= 0, got " + perType);
        }
        StringBuilder sb = new StringBuilder("valid: ").append(v.valid().elleName()).append('\n');
        if (!v.anomalyTypes().isEmpty()) {
            sb.append("anomaly types: ")
                    .append(String.join(", ", v.anomalyTypes().stream().map(AnomalyType::elleName).toList()))
                    .append('\n');
        }
        models(sb, v);
        for (AnomalyType t : VerdictJson.types(v)) {
            List<Finding> fs = v.anomalies().get(t);
            int shown = Math.min(perType, fs.size());
            for (int i = 0; i < shown; i++) {
                Notation fn = n == null ? Notation.of(fs.get(i)) : n;
                sb.append('\n').append(FindingText.title(fs.get(i), fn)).append('\n');
                PlainWords.Summary plain = models == null ? null : PlainWords.of(t.elleName(), models);
                if (plain != null) {
                    sb.append("In plain words: ").append(plain.sentence()).append('\n');
                }
                sb
                        .append(FindingText.render(fs.get(i), atoms, fn)).append('\n');
            }
            if (shown < fs.size()) {
                sb.append("\n... and ").append(fs.size() - shown).append(" more ").append(t.elleName())
                        .append('\n');
            }
        }
        return stats(sb.append('\n'), v).toString();
    }

    private static void models(StringBuilder sb, Verdict v) {
        if (!v.not().isEmpty()) {
            sb.append("not: ").append(String.join(", ", v.not())).append('\n');
        }
        if (!v.alsoNot().isEmpty()) {
            sb.append("also not: ").append(String.join(", ", v.alsoNot())).append('\n');
        }
    }

    private static StringBuilder stats(StringBuilder sb, Verdict v) {
        Verdict.Stats s = v.stats();
        return sb.append("stats: ").append(s.txns()).append(" txns (").append(s.ok()).append(" ok, ")
                .append(s.info()).append(" info, ").append(s.fail()).append(" fail), ").append(s.ops())
                .append(" ops, ").append(s.edges()).append(" edges\n");
    }
}
