package io.isowatch.checker;

import io.isowatch.checker.BatchHistory.Txn;
import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A deliberately plain, offline re-implementation of Elle's list-append analysis, for checking
 * {@link IncrementalChecker} against on small histories. It shares no code with the checker
 * beyond the anomaly lattice ({@link ConsistencyModels}) and the cycle classifier
 * ({@code CycleSpec.classify}), and follows jepsen-io/elle's {@code list_append.clj},
 * {@code txn.clj} and {@code core.clj} function by function: each method names the Elle function
 * it restates. The cycle search is Elle's, cycle-exists fallbacks included ({@link BatchElleSearch}).
 *
 * <p>Where Elle's answer depends on hash order, the reference tries every choice and answers
 * only when they agree (else null): which of several longest reads of an incompatible key
 * becomes the version order, and which matching cycle a search meets first. Where Elle crashes it
 * follows isowatch's documented choice: an element nobody appended is a {@code garbage-read}
 * (Elle asserts in its dirty-update pass), and in the dirty-update walk such an element, or one
 * whose writer never completed, counts as an unknown ({@code info}) outcome. Invocations without
 * a completion (the end of a prefix) take part only where Elle reads invocations: unique
 * appends, intermediate appends (G1b) and, here, garbage reads.
 *
 * <p>Cost: polynomial in the history except the cycle enumeration (see {@link BatchCycles}),
 * which is exponential in the worst case and capped; {@link #check} returns null past the cap.
 */
final class BatchReference {

    /** Elle's {@code ::init}: the state of a key before any append. */
    static final Object INIT = new Object() {
        @Override
        public String toString() {
            return "::init";
        }
    };

    /**
     * Verdict: Elle's {@code :valid?}, the reportable anomaly types, every type found, the
     * boundary, and, when imitating deviations, the types the checker may get either way.
     */
    record Result(Validity valid, SortedSet<String> types, SortedSet<String> all, SortedSet<String> not,
                  SortedSet<String> alsoNot, int edges, Set<String> uncertain, boolean cyclesUncertain)
            implements CheckerAgreement.ReferenceVerdict {

        boolean sameVerdict(Result o) {
            return valid == o.valid && types.equals(o.types) && not.equals(o.not) && alsoNot.equals(o.alsoNot);
        }

        boolean uncertain(String type) {
            AnomalyType t = AnomalyType.byElleName(type);
            boolean cycle = BatchElleSearch.isCycleExists(type) || t != null && t.isCycle();
            return uncertain.contains(type) || cyclesUncertain && cycle;
        }
    }

    private final BatchHistory history;
    private final List<Txn> txns;
    private final Set<BatchDeviation> deviations;
    /** For each incompatible key, which of its longest reads is the order (Elle picks by hash order). */
    private final Map<Long, Integer> longestChoice;
    /** For each incompatible key, how many distinct longest reads it has. */
    private final Map<Long, Integer> longestCount = new TreeMap<>();
    /** key -> version order (Elle's append-index :values). */
    private final Map<Long, List<Long>> orders = new HashMap<>();
    /**
     * key -> the order Elle's dirty-update pass walks where it differs from {@link #orders}: a
     * failed transaction's read longer than every ok and info read (distinct elements).
     */
    private final Map<Long, List<Long>> dirtyUpdateOrders = new HashMap<>();
    /** Whether some key's longest read is a tie between different reads, one of them failed. */
    private boolean dirtyUpdateOrderArbitrary;
    private final Set<Long> incompatible = new HashSet<>();
    /** Elle's write-index over ok and info completions: key -> element -> writer. */
    private final Map<Long, Map<Long, Txn>> writeIndex = new HashMap<>();
    /** Appends of every invocation: key -> element -> writer. */
    private final Map<Long, Map<Long, Txn>> invoked = new HashMap<>();
    /** Elle's read-index: key -> last element read (or INIT) -> readers. */
    private final Map<Long, Map<Object, Set<Txn>>> readIndex = new HashMap<>();
    final BatchCycles.Graph graph = new BatchCycles.Graph();
    private final SortedSet<String> found = new TreeSet<>();

    private BatchReference(List<Op> events, Set<BatchDeviation> deviations, Map<Long, Integer> longestChoice) {
        this.history = new BatchHistory(okNilReadsAsEmpty(events));
        this.txns = history.txns;
        this.deviations = deviations;
        this.longestChoice = longestChoice;
    }

    /**
     * Elle's read-index files an :ok read of nil under the initial state, as a read of []
     * (docs/elle-compatibility.md); :info and invocation reads of nil stay unknown.
     */
    private static List<Op> okNilReadsAsEmpty(List<Op> events) {
        List<Op> out = new ArrayList<>(events.size());
        for (Op op : events) {
            if (op.type() != OpType.OK || op.value().stream().noneMatch(m -> m instanceof MicroOp.Read r && !r.known())) {
                out.add(op);
                continue;
            }
            List<MicroOp> mops = new ArrayList<>();
            for (MicroOp m : op.value()) {
                mops.add(m instanceof MicroOp.Read r && !r.known() ? new MicroOp.Read(r.key(), new long[0]) : m);
            }
            out.add(new Op(op.index(), op.time(), op.type(), op.process(), mops, op.sourceLine()));
        }
        return out;
    }

    /**
     * Checks a history (events in index order) as Elle would under the given models and extra
     * anomalies. Returns null when a component holds more simple cycles than the cap, or when
     * Elle's answer would depend on hash order.
     */
    static Result check(List<Op> events, Set<String> models, Set<String> extraAnomalies) {
        return check(events, models, extraAnomalies, Set.of());
    }

    /**
     * As {@link #check(List, Set, Set)}, imitating the given departures of the checker from Elle.
     * Tries every choice of longest read for incompatible keys; null unless they all agree.
     */
    static Result check(List<Op> events, Set<String> models, Set<String> extraAnomalies,
                        Set<BatchDeviation> deviations) {
        BatchReference first = new BatchReference(events, deviations, Map.of());
        Result result = first.run(models, extraAnomalies);
        List<Long> keys = new ArrayList<>(first.longestCount.keySet());
        int combinations = 1;
        for (long k : keys) {
            combinations *= first.longestCount.get(k);
            if (combinations > 16) {
                return null;
            }
        }
        for (int c = 1; c < combinations && result != null; c++) {
            Map<Long, Integer> choice = new HashMap<>();
            int rest = c;
            for (long k : keys) {
                choice.put(k, rest % first.longestCount.get(k));
                rest /= first.longestCount.get(k);
            }
            Result other = new BatchReference(events, deviations, choice).run(models, extraAnomalies);
            if (other == null || !other.sameVerdict(result)) {
                return null;
            }
        }
        return result;
    }

    /** The dependency graph Elle builds for {@code events} under {@code models}: data edges plus its session graph. */
    static BatchCycles.Graph graphOf(List<Op> events, Set<String> models) {
        BatchReference r = new BatchReference(events, Set.of(), Map.of());
        r.indexes();
        r.dataEdges();
        Set<String> reportable = ConsistencyModels.reportableAnomalyTypes(models, Set.of());
        if (ConsistencyModels.realtimeNeeded(reportable)) {
            BatchHistory.link(r.graph, r.history.realtimeGraph(), EdgeKind.REALTIME);
        } else if (ConsistencyModels.processNeeded(reportable)) {
            BatchHistory.link(r.graph, r.history.processGraph(), EdgeKind.PROCESS);
        }
        return r.graph;
    }

    private Result run(Set<String> models, Set<String> extraAnomalies) {
        Set<String> reportable = ConsistencyModels.reportableAnomalyTypes(models, extraAnomalies);
        Set<String> prohibited = ConsistencyModels.prohibitedAnomalyTypes(models, extraAnomalies);
        indexes();
        if (dirtyUpdateOrderArbitrary) {
            return null;
        }
        dataEdges();
        if (ConsistencyModels.realtimeNeeded(reportable)) {
            BatchHistory.link(graph, history.realtimeGraph(), EdgeKind.REALTIME);
        } else if (ConsistencyModels.processNeeded(reportable)) {
            BatchHistory.link(graph, history.processGraph(), EdgeKind.PROCESS);
        }
        if (!BatchHistory.searchCycles(graph, BatchElleSearch.LIST_APPEND_ORDER, found)) {
            return null;
        }
        BatchFindings.addAll(this);
        if (graph.edgeCount() == 0) {
            found.add("empty-transaction-graph");
        }
        Set<String> uncertain = new HashSet<>();
        boolean cyclesUncertain = false;
        if (imitates(BatchDeviation.INCOMPATIBLE_KEY_PARTIAL_ORDER) && !incompatible.isEmpty()) {
            uncertain.addAll(BatchDeviation.ORDER_DEPENDENT);
            cyclesUncertain = true;
        }
        return result(reportable, prohibited, uncertain, cyclesUncertain);
    }

    private Result result(Set<String> reportable, Set<String> prohibited, Set<String> uncertain,
                          boolean cyclesUncertain) {
        SortedSet<String> types = BatchHistory.reported(found, reportable);
        if (types.isEmpty()) {
            return new Result(Validity.TRUE, types, new TreeSet<>(found), new TreeSet<>(), new TreeSet<>(),
                    graph.edgeCount(), uncertain, cyclesUncertain);
        }
        boolean bad = types.stream().anyMatch(prohibited::contains);
        var boundary = ConsistencyModels.friendlyBoundary(found);
        return new Result(bad ? Validity.FALSE : Validity.UNKNOWN, types, new TreeSet<>(found),
                new TreeSet<>(boundary.not()), new TreeSet<>(boundary.alsoNot()), graph.edgeCount(), uncertain,
                cyclesUncertain);
    }

    boolean imitates(BatchDeviation d) {
        return deviations.contains(d);
    }

    // ---- shared with BatchFindings ----

    List<Txn> txns() {
        return txns;
    }

    void found(String type) {
        found.add(type);
    }

    List<Long> order(long key) {
        return orders.get(key);
    }

    Set<Long> keysWithOrder() {
        return orders.keySet();
    }

    /** The order Elle's dirty-update pass walks for {@code key}, or null when it walks none. */
    List<Long> dirtyUpdateOrder(long key) {
        return dirtyUpdateOrders.getOrDefault(key, orders.get(key));
    }

    /** The keys Elle's dirty-update pass walks. */
    Set<Long> keysWithDirtyUpdateOrder() {
        Set<Long> keys = new TreeSet<>(orders.keySet());
        keys.addAll(dirtyUpdateOrders.keySet());
        return keys;
    }

    Set<Long> incompatibleKeys() {
        return incompatible;
    }

    Txn invokedWriter(long key, long element) {
        return invoked.getOrDefault(key, Map.of()).get(element);
    }

    // ---- indexes ----

    /** Elle's {@code sorted-values}, {@code incompatible-orders}, {@code append-index}, write and read indexes. */
    private void indexes() {
        Map<Long, Set<List<Long>>> values = new TreeMap<>();
        for (Txn t : txns) {
            for (MicroOp m : t.invoke.value()) {
                if (m instanceof MicroOp.Append a) {
                    invoked.computeIfAbsent(a.key(), k -> new HashMap<>()).put(a.value(), t);
                }
            }
            if (!t.possible()) {
                continue;
            }
            for (MicroOp m : t.value()) {
                if (m instanceof MicroOp.Append a) {
                    writeIndex.computeIfAbsent(a.key(), k -> new HashMap<>()).put(a.value(), t);
                } else if (m instanceof MicroOp.Read r && r.known()) {
                    List<Long> v = list(r.values());
                    if (!v.isEmpty()) {
                        values.computeIfAbsent(r.key(), k -> new LinkedHashSet<>()).add(v);
                    }
                    Object last = v.isEmpty() ? INIT : v.get(v.size() - 1);
                    readIndex.computeIfAbsent(r.key(), k -> new HashMap<>())
                            .computeIfAbsent(last, e -> new LinkedHashSet<>()).add(t);
                }
            }
        }
        for (Map.Entry<Long, Set<List<Long>>> e : values.entrySet()) {
            List<List<Long>> sorted = new ArrayList<>(e.getValue());
            sorted.sort((a, b) -> Integer.compare(a.size(), b.size()));
            boolean ok = true;
            for (int i = 0; i + 1 < sorted.size(); i++) {
                ok &= isPrefix(sorted.get(i), sorted.get(i + 1));
            }
            List<Long> longest = sorted.get(sorted.size() - 1);
            if (!ok) {
                incompatible.add(e.getKey());
                int length = longest.size();
                List<List<Long>> candidates = sorted.stream().filter(v -> v.size() == length).toList();
                longestCount.put(e.getKey(), candidates.size());
                longest = candidates.get(longestChoice.getOrDefault(e.getKey(), 0));
            }
            orders.put(e.getKey(), new ArrayList<>(new LinkedHashSet<>(longest)));
        }
        dirtyUpdateOrders(values);
    }

    /**
     * Elle's {@code dirty-update-cases} takes its order from {@code sorted-values} of every client
     * op, failed ones included (list_append.clj 955-958): where a failed transaction read a key
     * further than any ok or info read, that read is the order it walks. Which of several longest
     * reads that differ is Elle's arbitrary pick, so the reference then gives no answer.
     */
    private void dirtyUpdateOrders(Map<Long, Set<List<Long>>> possibleValues) {
        Map<Long, Set<List<Long>>> failedValues = new TreeMap<>();
        for (Txn t : txns) {
            if (t.type() != OpType.FAIL) {
                continue;
            }
            for (MicroOp m : t.value()) {
                if (m instanceof MicroOp.Read r && r.known() && r.length() > 0) {
                    failedValues.computeIfAbsent(r.key(), k -> new LinkedHashSet<>()).add(list(r.values()));
                }
            }
        }
        for (Map.Entry<Long, Set<List<Long>>> e : failedValues.entrySet()) {
            Set<List<Long>> all = new LinkedHashSet<>(e.getValue());
            all.addAll(possibleValues.getOrDefault(e.getKey(), Set.of()));
            int longest = all.stream().mapToInt(List::size).max().orElseThrow();
            List<List<Long>> candidates = all.stream().filter(v -> v.size() == longest).toList();
            boolean failedAmongLongest = candidates.stream().anyMatch(e.getValue()::contains);
            if (!failedAmongLongest) {
                continue;
            }
            if (candidates.size() > 1) {
                dirtyUpdateOrderArbitrary = true;
            } else {
                dirtyUpdateOrders.put(e.getKey(), new ArrayList<>(new LinkedHashSet<>(candidates.get(0))));
            }
        }
    }

    // ---- edges ----

    /** Elle's {@code wr-mop-dep}, {@code ww-mop-dep} and {@code rw-mop-deps} over ok and info ops. */
    private void dataEdges() {
        for (Txn t : txns) {
            if (!t.possible()) {
                continue;
            }
            for (MicroOp m : t.value()) {
                if (m instanceof MicroOp.Read r && r.known() && r.length() > 0) {
                    Txn w = writeIndex.getOrDefault(r.key(), Map.of()).get(r.values()[r.length() - 1]);
                    if (w != null && w != t) {
                        graph.link(w.id, t.id, EdgeKind.WR);
                    }
                } else if (m instanceof MicroOp.Append a) {
                    Object prev = previouslyAppended(a.key(), a.value());
                    if (prev != INIT) {
                        Txn w = writeIndex.getOrDefault(a.key(), Map.of()).get((Long) prev);
                        if (w != null && w != t) {
                            graph.link(w.id, t.id, EdgeKind.WW);
                        }
                    }
                    for (Txn reader : readIndex.getOrDefault(a.key(), Map.of()).getOrDefault(prev, Set.of())) {
                        if (reader != t) {
                            graph.link(reader.id, t.id, EdgeKind.RW);
                        }
                    }
                }
            }
        }
    }

    /**
     * Elle's {@code previously-appended-element}: the element before this one in the version
     * order, or for an element never read, the last element read; INIT when there is none.
     */
    private Object previouslyAppended(long key, long element) {
        List<Long> order = orders.getOrDefault(key, List.of());
        int i = order.indexOf(element);
        if (i > 0) {
            return order.get(i - 1);
        }
        if (i == 0 || order.isEmpty()) {
            return INIT;
        }
        return order.get(order.size() - 1);
    }

    static List<Long> list(long[] values) {
        return Arrays.stream(values).boxed().toList();
    }

    static boolean isPrefix(List<Long> a, List<Long> b) {
        return a.size() <= b.size() && b.subList(0, a.size()).equals(a);
    }
}
