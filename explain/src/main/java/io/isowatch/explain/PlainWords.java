package io.isowatch.explain;

import io.isowatch.anomaly.ConsistencyModels;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a finding is, in the words a database engineer uses: the anomaly's common name where one
 * exists (write skew, lost update, ...), which of the six common isolation levels allow it and
 * which forbid it, and whether it breaks the models a check was asked about.
 *
 * <p>Allowed and forbidden are not a second table: a level forbids an anomaly exactly when
 * {@link ConsistencyModels#impossibleModels} (Elle's lattice, the one the verdict's {@code not}
 * comes from) names it for that anomaly. The common names are only words.
 */
public final class PlainWords {

    /** The common levels, weakest first, by Elle's names. */
    public static final List<String> COMMON_LEVELS = List.of("read-uncommitted", "read-committed",
            "snapshot-isolation", "repeatable-read", "serializable", "strict-serializable");

    private static final Map<String, String> NAMES = Map.ofEntries(
            Map.entry("G0", "dirty write (a cycle of writes)"),
            Map.entry("G1a", "dirty read (of an aborted write)"),
            Map.entry("G1b", "dirty read (of an intermediate write)"),
            Map.entry("G1c", "circular information flow"),
            Map.entry("G1", "dirty read or circular information flow"),
            Map.entry("G-single-item", "read skew (a single anti-dependency)"),
            Map.entry("G-single", "read skew (a single anti-dependency)"),
            Map.entry("G-nonadjacent-item", "an anti-dependency cycle (non-adjacent anti-dependencies)"),
            Map.entry("G-nonadjacent", "an anti-dependency cycle (non-adjacent anti-dependencies)"),
            Map.entry("G2-item", "write skew (an anti-dependency cycle)"),
            Map.entry("G2", "write skew (an anti-dependency cycle)"),
            Map.entry("lost-update", "lost update"),
            Map.entry("dirty-update", "dirty update (a write built on an aborted one)"),
            Map.entry("internal", "an internally inconsistent read (the transaction contradicts itself)"),
            Map.entry("future-read", "a read of the transaction's own later write"),
            Map.entry("garbage-read", "a read of a value nobody wrote"),
            Map.entry("duplicate-elements", "a read holding one append twice"),
            Map.entry("incompatible-order", "two reads that disagree on a key's order"),
            Map.entry("cyclic-versions", "a contradicted version order"));

    private PlainWords() {
    }

    /**
     * The plain words for one anomaly type against the chosen models.
     *
     * @param name      the common name, e.g. {@code write skew (an anti-dependency cycle)}
     * @param allowedBy the common levels that allow it, weakest first
     * @param forbiddenBy the common levels that forbid it, weakest first
     * @param breaks    the chosen models it breaks, as given
     */
    public record Summary(String type, String name, List<String> allowedBy, List<String> forbiddenBy,
                          List<String> breaks) {
        public Summary {
            allowedBy = List.copyOf(allowedBy);
            forbiddenBy = List.copyOf(forbiddenBy);
            breaks = List.copyOf(breaks);
        }

        /**
         * One sentence: {@code G2-item is write skew (an anti-dependency cycle): read uncommitted,
         * read committed and snapshot isolation allow it; repeatable read, serializable and strict
         * serializable forbid it. It breaks strict-serializable, which this check asked for.}
         */
        public String sentence() {
            StringBuilder sb = new StringBuilder(type).append(" is ").append(name).append(": ");
            if (allowedBy.isEmpty()) {
                sb.append("every common level forbids it");
            } else if (forbiddenBy.isEmpty()) {
                sb.append("every common level allows it");
            } else {
                sb.append(words(allowedBy)).append(" allow it; ").append(words(forbiddenBy)).append(" forbid it");
            }
            return sb.append(". ").append(verdict()).toString();
        }

        /** Whether it matters to the models checked: {@code It breaks serializable, ...} or that it breaks none. */
        public String verdict() {
            return breaks.isEmpty() ? "It breaks none of the models checked."
                    : "It breaks " + String.join(", ", breaks) + (breaks.size() == 1 ? ", which was" : ", which were")
                    + " checked.";
        }
    }

    /** The summary for an anomaly type (Elle's name); null for a type the lattice does not know (the unknown verdicts). */
    public static Summary of(String type, Collection<String> chosenModels) {
        io.isowatch.anomaly.AnomalyType known = io.isowatch.anomaly.AnomalyType.byElleName(type);
        if (known != null && known.makesUnknown()) {
            return null; // no anomaly: the check could not decide
        }
        Set<String> impossible;
        try {
            impossible = ConsistencyModels.impossibleModels(List.of(type));
        } catch (IllegalArgumentException e) {
            return null;
        }
        List<String> allowed = new ArrayList<>();
        List<String> forbidden = new ArrayList<>();
        for (String level : COMMON_LEVELS) {
            (impossible.contains(ConsistencyModels.canonicalModel(level)) ? forbidden : allowed).add(level);
        }
        List<String> breaks = new ArrayList<>();
        for (String m : chosenModels) {
            try {
                if (impossible.contains(ConsistencyModels.canonicalModel(m))) {
                    breaks.add(m);
                }
            } catch (IllegalArgumentException e) {
                // a model this build does not know breaks nothing we can name
            }
        }
        return new Summary(type, commonName(type), allowed, forbidden, breaks);
    }

    /** The common name of an anomaly type; a -process or -realtime variant says what closes its cycle. */
    public static String commonName(String type) {
        String base = type;
        String closed = "";
        if (type.endsWith("-process")) {
            base = type.substring(0, type.length() - "-process".length());
            closed = ", closed through one session's order";
        } else if (type.endsWith("-realtime")) {
            base = type.substring(0, type.length() - "-realtime".length());
            closed = ", closed through real-time order";
        } else if (type.endsWith("-cycle-exists")) {
            return "a cycle the model forbids, of no more specific anomaly";
        }
        String name = NAMES.getOrDefault(base, base);
        return closed.isEmpty() ? name : name + closed;
    }

    /** Level names as words: {@code read committed, snapshot isolation and serializable}. */
    static String words(List<String> levels) {
        List<String> w = levels.stream().map(l -> l.replace('-', ' ')).toList();
        if (w.size() == 1) {
            return w.get(0);
        }
        return String.join(", ", w.subList(0, w.size() - 1)) + " and " + w.get(w.size() - 1);
    }
}
