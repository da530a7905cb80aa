package io.isowatch.anomaly;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Elle's consistency-model and anomaly lattice, as plain data.
 *
 * <p>Every table restates a fact from {@code elle.consistency-model} or {@code elle.txn}
 * (jepsen-io/elle, the version whose model graph routes parallel snapshot isolation through
 * {@code update-atomic}). Nothing here is derived; {@link LatticeTables} builds the indexes. Rows
 * keep Elle's own spelling, aliases included, because Elle canonicalises model names only after
 * building its graphs, and the duplicated keys (e.g. {@code PL-3} and {@code serializable}) merge
 * their edges. Changing a row changes verdicts: compare against Elle before editing.
 */
final class LatticeData {

    private LatticeData() {
    }

    /**
     * Anomaly implications: when the key is present, so is every value. Elle's
     * {@code implied-anomalies}. Read Adya for the G-classes; the {@code -process} and
     * {@code -realtime} rows say a cycle that needs fewer kinds of edge also exists with more.
     */
    static final Map<String, List<String>> IMPLIED_ANOMALIES = Map.ofEntries(
            row("G0", "G1c", "G0-process"),
            row("G0-process", "G1c-process", "G0-realtime"),
            row("G0-realtime", "G1c-realtime"),
            row("G1a", "G1"),
            row("G1b", "G1"),
            row("G1c", "G1", "G1c-process"),
            row("G1c-process", "G1c-realtime", "G1-process"),
            row("G1c-realtime", "G1-realtime"),
            row("G1", "G1-process"),
            row("G1-process", "G1-realtime"),
            row("G-single-item", "G-single", "G-single-item-process", "G-nonadjacent-item"),
            row("G-single-item-process",
                    "G-single-process", "G-single-item-realtime", "G-nonadjacent-item-process"),
            row("G-single-item-realtime", "G-single-realtime", "G-nonadjacent-item-realtime"),
            row("G-single", "G-nonadjacent", "GSIb", "G-single-process"),
            row("G-single-process", "G-nonadjacent-process", "G-single-realtime"),
            row("G-single-realtime", "G-nonadjacent-realtime"),
            row("G-nonadjacent-item", "G-nonadjacent", "G2-item", "G-nonadjacent-item-process"),
            row("G-nonadjacent-item-process",
                    "G-nonadjacent-process", "G2-item-process", "G-nonadjacent-item-realtime"),
            row("G-nonadjacent-item-realtime", "G2-item-realtime", "G-nonadjacent-realtime"),
            row("G-nonadjacent", "G2", "G-nonadjacent-process"),
            row("G-nonadjacent-process", "G2-process", "G-nonadjacent-realtime"),
            row("G-nonadjacent-realtime", "G2-realtime"),
            row("G2", "G2-process"),
            row("G2-item", "G2", "G2-item-process"),
            row("G2-item-process", "G2-process", "G2-item-realtime"),
            row("G2-item-realtime", "G2-realtime"),
            row("G2-process", "G2-realtime"),
            row("GSIa", "GSI"),
            row("GSIb", "GSI"),
            row("incompatible-order", "G1a"),
            row("future-read", "G1c"),
            row("dirty-update", "G1a"),
            row("lost-update", "write-skew", "G2-item"),
            row("write-skew", "G2"));

    /**
     * Extra "worse than" edges used only to order the cycle search, never for implication.
     * Elle's {@code anomaly-severity-graph}: G0 is searched before G1c, G1c before G-single, and
     * process (then realtime) variants only after the last pure data anomaly.
     */
    static final Map<String, List<String>> SEVERITY = Map.ofEntries(
            row("G0", "G1c"),
            row("G0-process", "G1c-process"),
            row("G0-realtime", "G1c-realtime"),
            row("G1c", "G-single", "G2-item"),
            row("G1c-process", "G-single-process", "G2-item-process"),
            row("G1c-realtime", "G-single-realtime", "G2-item-realtime"),
            row("G2", "G0-process"),
            row("G2-process", "G0-realtime"));

    /** Alias to canonical model name. Elle's {@code canonical-model-names}. */
    static final Map<String, String> CANONICAL_MODEL_NAMES = Map.ofEntries(
            Map.entry("consistent-view", "PL-2+"),
            Map.entry("conflict-serializable", "PL-3"),
            Map.entry("cursor-stability", "PL-CS"),
            Map.entry("forward-consistent-view", "PL-FCV"),
            Map.entry("monotonic-snapshot-read", "PL-MSR"),
            Map.entry("monotonic-view", "PL-2L"),
            Map.entry("read-committed", "PL-2"),
            Map.entry("read-uncommitted", "PL-1"),
            Map.entry("repeatable-read", "PL-2.99"),
            Map.entry("serializable", "PL-3"),
            Map.entry("snapshot-isolation", "PL-SI"),
            Map.entry("strict-serializable", "PL-SS"),
            Map.entry("strong-serializable", "PL-SS"),
            Map.entry("update-serializable", "PL-3U"),
            Map.entry("strong-session-read-uncommitted", "strong-session-PL-1"),
            Map.entry("strong-session-read-committed", "strong-session-PL-2"),
            Map.entry("strong-read-uncommitted", "strong-PL-1"),
            Map.entry("strong-read-committed", "strong-PL-2"));

    /**
     * Friendly names for canonical models that have two aliases. Elle inverts
     * {@code canonical-model-names}, so the alias iterated last wins; for {@code PL-3} it then
     * forces {@code serializable}. For {@code PL-SS} the winner is an accident of Clojure's hash
     * order, {@code strong-serializable}, which Elle's own tests pin (e.g. the boundary of
     * G-single-realtime names {@code strong-serializable}). Output must match, so we pin it too.
     */
    static final Map<String, String> FRIENDLY_TIE_BREAKS = Map.of(
            "PL-3", "serializable",
            "PL-SS", "strong-serializable");

    /**
     * Model implications: a history satisfying the key satisfies every value. Elle's
     * {@code models}, before canonicalisation; see jepsen.io/consistency for sources.
     */
    static final Map<String, List<String>> MODEL_IMPLICATIONS = Map.ofEntries(
            row("causal-cerone", "read-atomic"),
            row("consistent-view", "cursor-stability", "monotonic-view"),
            row("conflict-serializable", "view-serializable"),
            row("cursor-stability", "read-committed", "PL-2"),
            row("forward-consistent-view", "consistent-view"),
            row("PL-2", "PL-1"),
            row("PL-3", "repeatable-read", "update-serializable"),
            row("update-serializable", "forward-consistent-view"),
            row("monotonic-atomic-view", "read-committed"),
            row("monotonic-view", "PL-2"),
            row("monotonic-snapshot-read", "PL-2"),
            row("parallel-snapshot-isolation", "causal-cerone", "update-atomic"),
            row("prefix", "causal-cerone"),
            row("read-atomic", "monotonic-atomic-view"),
            row("read-committed", "read-uncommitted"),
            row("repeatable-read", "cursor-stability", "monotonic-atomic-view"),
            row("update-atomic", "read-atomic"),
            row("serializable", "repeatable-read", "snapshot-isolation", "view-serializable"),
            row("session-serializable", "1SR"),
            row("snapshot-isolation", "forward-consistent-view", "monotonic-atomic-view",
                    "monotonic-snapshot-read", "parallel-snapshot-isolation", "prefix"),
            row("strict-serializable", "PL-3", "serializable", "linearizable",
                    "snapshot-isolation", "strong-snapshot-isolation", "strong-session-serializable"),
            row("strong-session-PL-1", "PL-1"),
            row("strong-session-PL-2", "PL-2", "strong-session-PL-1"),
            row("strong-PL-1", "strong-session-PL-1"),
            row("strong-PL-2", "strong-session-PL-2", "strong-PL-1"),
            row("strong-session-serializable", "serializable", "strong-session-snapshot-isolation"),
            row("strong-session-snapshot-isolation", "snapshot-isolation", "strong-session-PL-2"),
            row("strong-serializable", "session-serializable"),
            row("strong-snapshot-isolation", "strong-session-snapshot-isolation", "strong-PL-2"),
            row("linearizable", "sequential"),
            row("sequential", "causal"),
            row("causal", "writes-follow-reads", "PRAM"),
            row("PRAM", "monotonic-reads", "monotonic-writes", "read-your-writes"));

    /**
     * The anomalies each model rules out on top of the models it implies. Elle's
     * {@code direct-proscribed-anomalies}; several rows are marked "incomplete" there.
     */
    static final Map<String, List<String>> DIRECT_PROHIBITIONS = Map.ofEntries(
            row("causal-cerone", "internal", "G1a"),
            row("cursor-stability", "G1", "G-cursor", "lost-update"),
            row("monotonic-view", "G1", "G-monotonic"),
            row("monotonic-snapshot-read", "G1", "G-MSR"),
            row("consistent-view", "G1", "G-single"),
            row("forward-consistent-view", "G1", "G-SIb"),
            row("parallel-snapshot-isolation", "internal", "G1a"),
            row("PL-3", "G1", "G2", "predicate-read-miss", "PL-3-cycle-exists"),
            row("PL-2", "G1", "PL-2-cycle-exists"),
            row("PL-1", "G0", "duplicate-elements", "cyclic-versions", "PL-1-cycle-exists"),
            row("prefix", "internal", "G1a"),
            row("serializable", "internal"),
            row("snapshot-isolation", "internal", "G1", "G-SI", "G-nonadjacent", "PL-SI-cycle-exists"),
            row("read-atomic", "internal", "G1a", "future-read"),
            row("repeatable-read", "G1", "G2-item", "PL-2.99-cycle-exists", "lost-update"),
            row("update-atomic", "lost-update"),
            row("strict-serializable", "G1", "G1c-realtime", "G2-realtime", "PL-SS-cycle-exists"),
            row("strong-session-PL-1", "strong-session-PL-1-cycle-exists", "G0-process"),
            row("strong-session-PL-2", "strong-session-PL-2-cycle-exists", "G1c-process"),
            row("strong-PL-1", "strong-PL-1-cycle-exists", "G0-realtime"),
            row("strong-PL-2", "strong-PL-2-cycle-exists", "G1c-realtime"),
            row("strong-session-snapshot-isolation", "internal", "G1-process",
                    "G-nonadjacent-process", "strong-session-snapshot-isolation-cycle-exists"),
            row("strong-snapshot-isolation", "internal", "G1-realtime",
                    "G-nonadjacent-realtime", "strong-snapshot-isolation-cycle-exists"),
            row("strong-session-serializable", "G1-process", "G2-process",
                    "strong-session-serializable-cycle-exists"),
            row("update-serializable", "G1", "G-update"));

    /**
     * The data-only cycle anomalies Elle searches for (keys of {@code base-cycle-anomaly-specs});
     * each also has {@code -process} and {@code -realtime} variants. G-single, G-nonadjacent and
     * G2 need predicate rw edges, which isowatch never infers.
     */
    static final List<String> BASE_CYCLE_TYPES = List.of(
            "G0", "G1c", "G-single-item", "G-single", "G-nonadjacent-item", "G-nonadjacent",
            "G2-item", "G2");

    /** The variant suffixes Elle adds to every base cycle type, in {@code cycle-anomaly-specs}. */
    static final String PROCESS_SUFFIX = "-process";
    static final String REALTIME_SUFFIX = "-realtime";

    /** Types that make a verdict unknown rather than invalid. Elle's {@code unknown-anomaly-types}. */
    static final Set<String> UNKNOWN_TYPES = Set.of("empty-transaction-graph", "cycle-search-timeout");

    /** isowatch's own anomaly: a read of a value that no transaction wrote. */
    static final String GARBAGE_READ = "garbage-read";

    /** The anomaly whose prohibitions garbage-read shares (see {@link ConsistencyModels}). */
    static final String GARBAGE_READ_PEER = "G1a";

    private static Map.Entry<String, List<String>> row(String from, String... to) {
        return Map.entry(from, List.of(to));
    }
}
