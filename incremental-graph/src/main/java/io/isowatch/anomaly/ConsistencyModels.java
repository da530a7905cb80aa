package io.isowatch.anomaly;

import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which anomalies each consistency model rules out, and which models a set of anomalies rules
 * out: Elle's lattice of models and anomalies, so that isowatch's verdicts and boundaries are
 * Elle's.
 *
 * <p>Three directed acyclic graphs carry the facts (see {@link LatticeData}): model implications
 * ("serializable implies repeatable-read"), anomaly implications ("G1a implies G1") and the
 * anomalies each model directly prohibits. A model prohibits every anomaly that one of its
 * implied models prohibits directly, and every anomaly that implies one of those. Names are
 * Elle's, as strings; models may be given by any alias and are canonicalised first
 * ({@code serializable} becomes {@code PL-3}).
 *
 * <p><b>garbage-read</b> is isowatch's own anomaly: reading a value that no transaction, committed
 * or aborted, ever wrote. Elle has no such anomaly. Read uncommitted promises that reads see
 * written values, so every model that rules out G1a (aborted read) also rules out garbage-read.
 * It is <em>not</em> placed in the implication graph below G1a: finding a garbage read does not
 * mean an aborted read happened, so {@link #allImpliedAnomalies} of it is just itself. The rule
 * is applied where prohibitions and impossibilities are computed instead: garbage-read is
 * prohibited exactly where G1a is, and makes exactly the models impossible that G1a would.
 *
 * <p>Unknown names are programming errors and throw {@link IllegalArgumentException} naming the
 * value and listing the known names; Elle silently passes unknown anomalies through. Results are
 * immutable sets in natural (Elle's sorted-set) order. The tables are built once when the class
 * loads; the class holds no mutable state and is safe to use from any thread. The lattices have
 * under a hundred vertices, so every query is a breadth-first search costing microseconds.
 *
 * @see <a href="https://github.com/jepsen-io/elle/blob/main/src/elle/consistency_model.clj">Elle's
 *      elle.consistency-model</a>
 */
public final class ConsistencyModels {

    private static final LatticeTables T = LatticeTables.build();
    private static final List<String> CYCLE_SEARCH_ORDER = T.cycleTypes().stream()
            .filter(ConsistencyModels::isEmittedCycle)
            .sorted(ConsistencyModels::anomalyDepthCompare)
            .toList();

    private ConsistencyModels() {
    }

    /** Every model name Elle knows, aliases and canonical names alike (Elle's {@code all-models}). */
    public static SortedSet<String> modelNames() {
        return T.modelNames();
    }

    /**
     * Elle's canonical name for a model, e.g. {@code PL-2} for {@code read-committed}; canonical
     * names and models without aliases map to themselves.
     *
     * @throws IllegalArgumentException when Elle does not know the model
     */
    public static String canonicalModel(String name) {
        if (name == null) {
            throw new IllegalArgumentException(LatticeMessages.nullName("model"));
        }
        String c = T.canonical().get(name);
        if (c == null) {
            throw new IllegalArgumentException(LatticeMessages.unknownModel(name, T.modelNames()));
        }
        return c;
    }

    /**
     * The name Elle prints for a model: the friendly name of its canonical form, e.g.
     * {@code serializable} for {@code PL-3} and for {@code conflict-serializable}, and
     * {@code strong-serializable} for {@code strict-serializable} (Elle's choice, not ours).
     *
     * @throws IllegalArgumentException when Elle does not know the model
     */
    public static String friendlyModel(String name) {
        return T.friendly().get(canonicalModel(name));
    }

    /**
     * Every anomaly name the lattice knows: Elle's {@code all-anomalies} (concrete, abstract such
     * as G1 and G-single, and the {@code *-cycle-exists} fallbacks), plus garbage-read and the two
     * types that make a verdict unknown ({@code empty-transaction-graph},
     * {@code cycle-search-timeout}), which imply nothing and no model prohibits.
     */
    public static SortedSet<String> anomalyNames() {
        return T.anomalyNames();
    }

    /**
     * Checks that the lattice knows an anomaly name.
     *
     * @throws IllegalArgumentException naming the value and listing the known names
     */
    public static void checkAnomalyName(String name) {
        if (name == null) {
            throw new IllegalArgumentException(LatticeMessages.nullName("anomaly"));
        }
        if (!T.anomalyNames().contains(name)) {
            throw new IllegalArgumentException(LatticeMessages.unknownAnomaly(name, T.anomalyNames()));
        }
    }

    /**
     * The anomalies that cannot occur if all the given models hold: Elle's
     * {@code anomalies-prohibited-by}, plus garbage-read wherever G1a is prohibited. Empty for no
     * models.
     *
     * @throws IllegalArgumentException when a model is unknown
     */
    public static SortedSet<String> anomaliesProhibitedBy(Collection<String> models) {
        Set<String> direct = new HashSet<>();
        for (String m : T.models().downstream(canonicalModels(models))) {
            direct.addAll(T.prohibits().getOrDefault(m, Set.of()));
        }
        return withGarbageRead(T.anomalies().upstream(direct));
    }

    /**
     * The given anomalies plus every anomaly that implies one of them: Elle's
     * {@code all-anomalies-implying}. Used to widen a set of anomalies a caller asked about.
     */
    public static SortedSet<String> allAnomaliesImplying(Collection<String> anomalies) {
        return sorted(T.anomalies().upstream(checkedAnomalies(anomalies)));
    }

    /**
     * The given anomalies plus every anomaly they imply: Elle's {@code all-implied-anomalies}.
     * Once a cycle of one type is found, searches for the types it implies are redundant.
     */
    public static SortedSet<String> allImpliedAnomalies(Collection<String> anomalies) {
        return sorted(T.anomalies().downstream(checkedAnomalies(anomalies)));
    }

    /**
     * The anomalies that fail a check: those the models prohibit plus those implying an extra
     * anomaly the caller named. Elle's {@code txn/prohibited-anomaly-types}, except that an empty
     * {@code models} means none: Elle substitutes {@code [strict-serializable]} only when the
     * option is absent, and that default belongs to the caller's options.
     */
    public static SortedSet<String> prohibitedAnomalyTypes(Collection<String> models,
                                                           Collection<String> extraAnomalies) {
        Set<String> all = new HashSet<>(allAnomaliesImplying(extraAnomalies));
        all.addAll(anomaliesProhibitedBy(models));
        return withGarbageRead(all);
    }

    /**
     * The anomalies worth reporting: the prohibited ones plus the two that make a verdict unknown.
     * Elle's {@code txn/reportable-anomaly-types}.
     */
    public static SortedSet<String> reportableAnomalyTypes(Collection<String> models,
                                                           Collection<String> extraAnomalies) {
        Set<String> all = new HashSet<>(prohibitedAnomalyTypes(models, extraAnomalies));
        all.addAll(LatticeData.UNKNOWN_TYPES);
        return sorted(all);
    }

    /**
     * The canonical names of every model that cannot hold when these anomalies are present:
     * Elle's {@code anomalies->impossible-models}, which already widens the result to every
     * stronger model as {@code all-impossible-models} does.
     */
    public static SortedSet<String> impossibleModels(Collection<String> anomalies) {
        Set<String> present = new HashSet<>(checkedAnomalies(anomalies));
        if (present.contains(LatticeData.GARBAGE_READ)) {
            present.add(LatticeData.GARBAGE_READ_PEER);
        }
        Set<String> direct = new HashSet<>();
        for (String a : T.anomalies().downstream(present)) {
            direct.addAll(T.prohibitedBy().getOrDefault(a, Set.of()));
        }
        return sorted(T.models().upstream(direct));
    }

    /**
     * Elle's {@code friendly-boundary}: {@code not} holds the weakest impossible models (those
     * implying no other impossible model), {@code alsoNot} the rest, both by friendly name.
     * Several models can be weakest at once, e.g. consistent-view and repeatable-read for
     * G-single-item.
     */
    public static Boundary friendlyBoundary(Collection<String> anomalies) {
        SortedSet<String> impossible = impossibleModels(anomalies);
        SortedSet<String> not = new TreeSet<>();
        SortedSet<String> alsoNot = new TreeSet<>();
        for (String m : impossible) {
            Set<String> weaker = new HashSet<>(T.models().downstream(List.of(m)));
            weaker.remove(m);
            weaker.retainAll(impossible);
            (weaker.isEmpty() ? not : alsoNot).add(T.friendly().get(m));
        }
        return new Boundary(not, alsoNot);
    }

    /**
     * Elle's {@code anomaly-depth-compare}: shallower anomalies first (depth in the implication
     * graph merged with the severity graph), then by name. Names Elle gives no depth
     * (garbage-read, the unknown types) sort first, as Clojure's {@code compare} puts nil first.
     *
     * @throws IllegalArgumentException when either name is unknown
     */
    public static int anomalyDepthCompare(String a, String b) {
        checkAnomalyName(a);
        checkAnomalyName(b);
        Integer da = T.depths().get(a);
        Integer db = T.depths().get(b);
        int byDepth = Comparator.nullsFirst(Comparator.<Integer>naturalOrder()).compare(da, db);
        return byDepth != 0 ? byDepth : a.compareTo(b);
    }

    /**
     * The cycle types to search for, in Elle's order: {@code txn/cycle-anomaly-specs}, a map
     * sorted by {@link #anomalyDepthCompare}, so variants interleave with data anomalies
     * (G-single-item comes before G0, and G2-item before G0-process). Only types isowatch emits
     * are listed: Elle's G-single, G-nonadjacent and G2 (and their variants) need predicate rw
     * edges, which isowatch never infers, so their searches could not succeed.
     */
    public static List<String> cycleSearchOrder() {
        return CYCLE_SEARCH_ORDER;
    }

    /**
     * True when Elle would build the realtime graph: some reportable type is a {@code -realtime}
     * cycle type. Process anomalies are then found as realtime ones.
     */
    public static boolean realtimeNeeded(Set<String> reportable) {
        return anyCycleWith(reportable, LatticeData.REALTIME_SUFFIX);
    }

    /**
     * True when Elle would build the process graph: some reportable type is a {@code -process}
     * cycle type and the realtime graph is not needed (Elle builds one or the other, never both).
     */
    public static boolean processNeeded(Set<String> reportable) {
        return !realtimeNeeded(reportable) && anyCycleWith(reportable, LatticeData.PROCESS_SUFFIX);
    }

    private static boolean anyCycleWith(Set<String> types, String suffix) {
        return checkedAnomalies(types).stream()
                .anyMatch(t -> T.cycleTypes().contains(t) && t.endsWith(suffix));
    }

    private static boolean isEmittedCycle(String elleName) {
        AnomalyType t = AnomalyType.byElleName(elleName);
        return t != null && t.isCycle();
    }

    private static List<String> canonicalModels(Collection<String> models) {
        Objects.requireNonNull(models, "models");
        return models.stream().map(ConsistencyModels::canonicalModel).toList();
    }

    private static Set<String> checkedAnomalies(Collection<String> anomalies) {
        Objects.requireNonNull(anomalies, "anomalies");
        anomalies.forEach(ConsistencyModels::checkAnomalyName);
        return Set.copyOf(anomalies);
    }

    private static SortedSet<String> withGarbageRead(Set<String> prohibited) {
        SortedSet<String> out = new TreeSet<>(prohibited);
        if (out.contains(LatticeData.GARBAGE_READ_PEER)) {
            out.add(LatticeData.GARBAGE_READ);
        }
        return Collections.unmodifiableSortedSet(out);
    }

    private static SortedSet<String> sorted(Set<String> names) {
        return Collections.unmodifiableSortedSet(new TreeSet<>(names));
    }
}
