package io.isowatch.checker;

import io.isowatch.checker.BatchHistory.Txn;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A deliberately plain, offline re-statement of Elle's rw-register analysis, for checking
 * {@link IncrementalChecker} against on small histories. It shares no code with the checker
 * beyond the anomaly lattice ({@link ConsistencyModels}) and the cycle classifier, and follows
 * jepsen-io/elle's {@code rw_register.clj} and {@code txn.clj} function by function; each method
 * names the Elle function it restates. The cycle search is {@link BatchElleSearch}, explaining
 * pairs in rw-register's order.
 *
 * <p>In outline: external reads and writes per transaction ({@code txn/ext-reads},
 * {@code ext-writes}); indexes over ok transactions only ({@code ext-index}); wr from the unique
 * ok writer of a value; version graphs from the sources in Elle's order (initial state, then
 * writes-follow-reads, per-process and realtime order when assumed), each added whole and dropped
 * whole, as {@code cyclic-versions}, if any key's versions become cyclic; ww and rw from every
 * version edge; the session graph Elle's {@code additional-graphs} picks; G1a, G1b, internal and
 * lost-update over every read of every ok transaction, as Elle scans them; and isowatch's
 * {@code garbage-read} (a non-nil read of a value no invocation wrote, Elle ignores it).
 *
 * <p>Prefixes: a transaction without a completion takes part only where Elle reads invocations
 * ({@code intermediate-writes}, G1b) and in garbage reads (its invocation names what it writes).
 * A history in which two ok transactions write the same value of a key is rejected, as Elle's
 * {@code wr-graph} rejects it. Cost: polynomial except the cycle enumeration, capped; past the
 * cap, or when Elle's answer would depend on which cycle its search meets first, {@link #check}
 * returns null.
 *
 * <p>{@link Deviation} lets the reference imitate known departures of the checker, so a property
 * can tell a known departure from a new one.
 */
final class RegisterBatchReference {

    /** Elle's {@code :valid?}, the reportable anomaly types, every type found, and the boundary. */
    record Result(Validity valid, SortedSet<String> types, SortedSet<String> all, SortedSet<String> not,
                  SortedSet<String> alsoNot) implements CheckerAgreement.ReferenceVerdict {
    }

    /** Known ways the checker departs from Elle; each has a failing example in {@code RegisterCheckerTest}. */
    enum Deviation {
        /** The checker explains a pair joined by ww and wr as ww (Elle's rw-register explains it as wr). */
        WW_EXPLAINED_FIRST,
        /**
         * The checker's linearizable-keys source relates only transactions with no transaction
         * touching the key between them in realtime; Elle relates every pair joined by a path of
         * its realtime graph that avoids the key, which can add edges not implied by the others.
         */
        REALTIME_REDUCTION,
        /**
         * The checker tests only a transaction's external reads for G1a, G1b and garbage reads.
         * (For garbage-read, isowatch's own type, this is a gap in its definition rather than a
         * departure from Elle.)
         */
        EXTERNAL_BAD_READS_ONLY,
        /**
         * The checker reports a read of a failed transaction's intermediate write as G1a only, not
         * also G1b, when the failure arrived before the read's completion.
         */
        ABORTED_INTERMEDIATE_NOT_G1B
    }

    /** A register version: nil, or a value. */
    record Ver(boolean nil, long value) {
        static final Ver NIL = new Ver(true, 0);

        static Ver of(long value) {
            return new Ver(false, value);
        }

        @Override
        public String toString() {
            return nil ? "nil" : Long.toString(value);
        }
    }

    private final BatchHistory history;
    private final List<Txn> txns;
    private final RegisterOptions sources;
    private final Set<Deviation> deviations;
    /** Elle's ext-index of writes over ok ops: key -> value -> writers. */
    private final Map<Long, Map<Long, List<Txn>>> writers = new HashMap<>();
    /** Elle's ext-index of reads over ok ops: key -> version (nil included) -> readers. */
    private final Map<Long, Map<Ver, List<Txn>>> readers = new HashMap<>();
    /** The version graphs of the sources kept: key -> version -> successors. */
    private final Map<Long, Map<Ver, Set<Ver>>> versions = new HashMap<>();
    final BatchCycles.Graph graph = new BatchCycles.Graph();
    private final SortedSet<String> found = new TreeSet<>();

    private RegisterBatchReference(List<Op> events, RegisterOptions sources, Set<Deviation> deviations) {
        this.history = new BatchHistory(events);
        this.txns = history.txns;
        this.sources = sources;
        this.deviations = deviations;
    }

    /**
     * Checks a history (events in index order) as Elle's rw-register checker would under the
     * given models, extra anomalies and version-order sources. Null when Elle's answer depends on
     * search order or the cycle enumeration passes its cap.
     */
    static Result check(List<Op> events, Set<String> models, Set<String> anomalies, RegisterOptions sources) {
        return check(events, models, anomalies, sources, Set.of());
    }

    /** As {@link #check(List, Set, Set, RegisterOptions)}, imitating the given departures of the checker. */
    static Result check(List<Op> events, Set<String> models, Set<String> anomalies, RegisterOptions sources,
                        Set<Deviation> deviations) {
        return new RegisterBatchReference(events, sources, deviations).run(models, anomalies);
    }

    private Result run(Set<String> models, Set<String> anomalies) {
        Set<String> reportable = ConsistencyModels.reportableAnomalyTypes(models, anomalies);
        Set<String> prohibited = ConsistencyModels.prohibitedAnomalyTypes(models, anomalies);
        extIndexes();
        wrGraph();
        versionGraphs();
        versionGraphsToTransactionGraph();
        if (ConsistencyModels.realtimeNeeded(reportable)) {
            BatchHistory.link(graph, history.realtimeGraph(), EdgeKind.REALTIME);
        } else if (ConsistencyModels.processNeeded(reportable)) {
            BatchHistory.link(graph, history.processGraph(), EdgeKind.PROCESS);
        }
        List<EdgeKind> order = deviations.contains(Deviation.WW_EXPLAINED_FIRST)
                ? BatchElleSearch.LIST_APPEND_ORDER : BatchElleSearch.RW_REGISTER_ORDER;
        if (!BatchHistory.searchCycles(graph, order, found)) {
            return null;
        }
        badReads();
        for (Txn t : txns) {
            if (t.ok() && internal(t.value())) {
                found.add("internal");
            }
        }
        if (lostUpdate()) {
            found.add("lost-update");
        }
        if (graph.edgeCount() == 0) {
            found.add("empty-transaction-graph");
        }
        return result(reportable, prohibited);
    }

    /** Elle's {@code result-map}, with {@code remove-redundant-cycle-exists}. */
    private Result result(Set<String> reportable, Set<String> prohibited) {
        SortedSet<String> types = BatchHistory.reported(found, reportable);
        if (types.isEmpty()) {
            return new Result(Validity.TRUE, types, new TreeSet<>(found), new TreeSet<>(), new TreeSet<>());
        }
        boolean bad = types.stream().anyMatch(prohibited::contains);
        var boundary = ConsistencyModels.friendlyBoundary(found);
        return new Result(bad ? Validity.FALSE : Validity.UNKNOWN, types, new TreeSet<>(found),
                new TreeSet<>(boundary.not()), new TreeSet<>(boundary.alsoNot()));
    }

    // ---- indexes ----

    /** Jepsen's {@code txn/ext-reads}: per key, the value of the first micro-op if it is a read. */
    static Map<Long, Ver> extReads(List<MicroOp> mops) {
        Map<Long, Ver> out = new LinkedHashMap<>();
        Set<Long> seen = new HashSet<>();
        for (MicroOp m : mops) {
            if (seen.add(m.key()) && m instanceof MicroOp.Read r) {
                out.put(r.key(), read(r));
            }
        }
        return out;
    }

    /** Jepsen's {@code txn/ext-writes}: per key, the last value written. */
    static Map<Long, Long> extWrites(List<MicroOp> mops) {
        Map<Long, Long> out = new LinkedHashMap<>();
        for (MicroOp m : mops) {
            if (m instanceof MicroOp.Write w) {
                out.put(w.key(), w.value());
            }
        }
        return out;
    }

    static Ver read(MicroOp.Read r) {
        return r.length() == 0 ? Ver.NIL : Ver.of(r.values()[0]);
    }

    /** Elle's {@code ext-index} over ok ops, for reads and writes. */
    private void extIndexes() {
        for (Txn t : txns) {
            if (!t.ok()) {
                continue;
            }
            extWrites(t.value()).forEach((k, v) -> {
                List<Txn> ws = writers.computeIfAbsent(k, x -> new HashMap<>()).computeIfAbsent(v, x -> new ArrayList<>());
                ws.add(t);
                if (ws.size() > 1) {
                    // Elle's wr-graph: "Key k had value v written by more than one op".
                    throw new IllegalArgumentException("key " + k + " had value " + v + " written by " + ws);
                }
            });
            extReads(t.value()).forEach((k, v) ->
                    readers.computeIfAbsent(k, x -> new HashMap<>()).computeIfAbsent(v, x -> new ArrayList<>()).add(t));
        }
    }

    private List<Txn> writersOf(long key, Ver v) {
        return v.nil() ? List.of() : writers.getOrDefault(key, Map.of()).getOrDefault(v.value(), List.of());
    }

    private List<Txn> readersOf(long key, Ver v) {
        return readers.getOrDefault(key, Map.of()).getOrDefault(v, List.of());
    }

    private void link(Txn from, Txn to, EdgeKind kind) {
        if (from != to) {
            graph.link(from.id, to.id, kind);
        }
    }

    /** Elle's {@code wr-graph}: the unique ok external writer of a value precedes its ok external readers. */
    private void wrGraph() {
        readers.forEach((k, byValue) -> byValue.forEach((v, rs) -> {
            List<Txn> ws = writersOf(k, v);
            if (ws.size() == 1) {
                rs.forEach(r -> link(ws.get(0), r, EdgeKind.WR));
            }
        }));
    }

    // ---- version graphs ----

    /**
     * Elle's {@code version-graphs}: each source in order is merged into the graphs kept so far;
     * if the merge has a cycle on any key, the source is dropped (whole) and the cycle reported.
     */
    private void versionGraphs() {
        List<Map<Long, Map<Ver, Set<Ver>>>> graphers = new ArrayList<>();
        graphers.add(initialStateVersionGraphs());
        if (sources.wfrKeys()) {
            graphers.add(wfrVersionGraphs());
        }
        if (sources.sequentialKeys()) {
            graphers.add(transactionGraphToVersionGraphs(history.processGraph()));
        }
        if (sources.linearizableKeys()) {
            graphers.add(deviations.contains(Deviation.REALTIME_REDUCTION)
                    ? reducedRealtimeVersionGraphs() : transactionGraphToVersionGraphs(history.realtimeGraph()));
        }
        for (Map<Long, Map<Ver, Set<Ver>>> source : graphers) {
            Map<Long, Map<Ver, Set<Ver>>> merged = copy(versions);
            source.forEach((k, g) -> g.forEach((v, succ) -> succ.forEach(s -> addVersionEdge(merged, k, v, s))));
            if (merged.values().stream().anyMatch(RegisterBatchReference::cyclic)) {
                found.add("cyclic-versions");
            } else {
                versions.clear();
                versions.putAll(merged);
            }
        }
    }

    private static Map<Long, Map<Ver, Set<Ver>>> copy(Map<Long, Map<Ver, Set<Ver>>> graphs) {
        Map<Long, Map<Ver, Set<Ver>>> out = new HashMap<>();
        graphs.forEach((k, g) -> g.forEach((v, succ) -> succ.forEach(s -> addVersionEdge(out, k, v, s))));
        return out;
    }

    private static void addVersionEdge(Map<Long, Map<Ver, Set<Ver>>> graphs, long key, Ver from, Ver to) {
        if (!from.equals(to)) {
            Map<Ver, Set<Ver>> g = graphs.computeIfAbsent(key, k -> new LinkedHashMap<>());
            g.computeIfAbsent(from, v -> new LinkedHashSet<>()).add(to);
            g.computeIfAbsent(to, v -> new LinkedHashSet<>());
        }
    }

    /** Whether a version graph has a cycle (Elle's {@code cyclic-version-cases}). */
    private static boolean cyclic(Map<Ver, Set<Ver>> g) {
        Map<Ver, Integer> state = new HashMap<>();
        for (Ver v : g.keySet()) {
            if (cycleFrom(g, v, state)) {
                return true;
            }
        }
        return false;
    }

    private static boolean cycleFrom(Map<Ver, Set<Ver>> g, Ver v, Map<Ver, Integer> state) {
        Integer s = state.get(v);
        if (s != null) {
            return s == 1;
        }
        state.put(v, 1);
        for (Ver next : g.getOrDefault(v, Set.of())) {
            if (cycleFrom(g, next, state)) {
                return true;
            }
        }
        state.put(v, 2);
        return false;
    }

    /** Elle's {@code initial-state-version-graphs}: nil precedes each ok or info op's external values. */
    private Map<Long, Map<Ver, Set<Ver>>> initialStateVersionGraphs() {
        Map<Long, Map<Ver, Set<Ver>>> out = new HashMap<>();
        for (Txn t : txns) {
            if (t.type() == OpType.OK || t.type() == OpType.INFO) {
                extWrites(t.value()).forEach((k, v) -> addVersionEdge(out, k, Ver.NIL, Ver.of(v)));
                if (t.ok()) {
                    extReads(t.value()).forEach((k, v) -> addVersionEdge(out, k, Ver.NIL, v));
                }
            }
        }
        return out;
    }

    /** Elle's {@code wfr-version-graphs}: an ok op's non-nil external read precedes its external write. */
    private Map<Long, Map<Ver, Set<Ver>>> wfrVersionGraphs() {
        Map<Long, Map<Ver, Set<Ver>>> out = new HashMap<>();
        for (Txn t : txns) {
            if (t.ok()) {
                Map<Long, Long> writes = extWrites(t.value());
                extReads(t.value()).forEach((k, v) -> {
                    if (!v.nil() && writes.containsKey(k)) {
                        addVersionEdge(out, k, v, Ver.of(writes.get(k)));
                    }
                });
            }
        }
        return out;
    }

    /** Elle's {@code ext-keys}: keys an ok op read or wrote externally; an info op's writes; else none. */
    private Set<Long> extKeys(Txn t) {
        Set<Long> keys = new HashSet<>();
        if (t.type() == OpType.OK || t.type() == OpType.INFO) {
            keys.addAll(extWrites(t.value()).keySet());
            if (t.ok()) {
                keys.addAll(extReads(t.value()).keySet());
            }
        }
        return keys;
    }

    /** The version an op last interacted with (Elle's v1); null for Elle's {@code ::none}. */
    private static Ver lastVersion(Txn a, long key) {
        Map<Long, Long> w = extWrites(a.value());
        if (a.ok()) {
            if (w.containsKey(key)) {
                return Ver.of(w.get(key));
            }
            return extReads(a.value()).getOrDefault(key, Ver.NIL);
        }
        return a.type() == OpType.INFO && w.containsKey(key) ? Ver.of(w.get(key)) : null;
    }

    /** The version an op first interacted with (Elle's v2): its non-nil read, else its write; null for none. */
    private static Ver firstVersion(Txn b, long key) {
        Map<Long, Long> w = extWrites(b.value());
        if (b.ok()) {
            Ver r = extReads(b.value()).get(key);
            if (r != null && !r.nil()) {
                return r;
            }
            return w.containsKey(key) ? Ver.of(w.get(key)) : Ver.NIL;
        }
        return b.type() == OpType.INFO && w.containsKey(key) ? Ver.of(w.get(key)) : null;
    }

    /**
     * Elle's {@code transaction-graph->version-graphs} over {@code ext-key-graph}: for each op a
     * and key k, the nearest ops downstream of a that touch k, reached through ops that do not;
     * a's last version of k precedes each one's first.
     */
    private Map<Long, Map<Ver, Set<Ver>>> transactionGraphToVersionGraphs(Map<Txn, List<Txn>> g) {
        Map<Long, Map<Ver, Set<Ver>>> out = new HashMap<>();
        Set<Long> keys = new TreeSet<>();
        for (Txn t : txns) {
            keys.addAll(extKeys(t));
        }
        for (Txn a : g.keySet()) {
            for (long k : keys) {
                Set<Txn> downstream = new LinkedHashSet<>();
                nearestTouching(g, a, k, new HashSet<>(), downstream);
                Ver v1 = lastVersion(a, k);
                if (v1 == null || downstream.isEmpty()) {
                    continue;
                }
                for (Txn b : downstream) {
                    Ver v2 = firstVersion(b, k);
                    if (v2 != null) {
                        addVersionEdge(out, k, v1, v2);
                    }
                }
            }
        }
        return out;
    }

    private void nearestTouching(Map<Txn, List<Txn>> g, Txn from, long key, Set<Txn> seen, Set<Txn> out) {
        for (Txn n : g.getOrDefault(from, List.of())) {
            if (!seen.add(n)) {
                continue;
            }
            if (extKeys(n).contains(key)) {
                out.add(n);
            } else {
                nearestTouching(g, n, key, seen, out);
            }
        }
    }

    /**
     * The checker's reading of linearizable keys (imitated, not Elle's): a's last version
     * precedes b's first when a (ok) completed before b was invoked, both touch the key, and no
     * ok op touching the key ran wholly between them.
     */
    private Map<Long, Map<Ver, Set<Ver>>> reducedRealtimeVersionGraphs() {
        Map<Long, Map<Ver, Set<Ver>>> out = new HashMap<>();
        for (Txn a : txns) {
            for (Txn b : txns) {
                if (!a.ok() || b.completion == null || !before(a, b)) {
                    continue;
                }
                for (long k : extKeys(a)) {
                    if (!extKeys(b).contains(k)) {
                        continue;
                    }
                    boolean between = txns.stream().anyMatch(c -> c.ok() && extKeys(c).contains(k)
                            && before(a, c) && before(c, b));
                    Ver v2 = firstVersion(b, k);
                    if (!between && v2 != null) {
                        addVersionEdge(out, k, lastVersion(a, k), v2);
                    }
                }
            }
        }
        return out;
    }

    private static boolean before(Txn a, Txn b) {
        return a.completion != null && b.invocationSeen() && a.completion.index() < b.invoke.index();
    }

    /** Elle's {@code version-graphs->transaction-graph}: ww and rw along every version edge kept. */
    private void versionGraphsToTransactionGraph() {
        versions.forEach((k, g) -> g.forEach((v1, succ) -> {
            for (Ver v2 : succ) {
                for (Txn w2 : writersOf(k, v2)) {
                    writersOf(k, v1).forEach(w1 -> link(w1, w2, EdgeKind.WW));
                    readersOf(k, v1).forEach(r1 -> link(r1, w2, EdgeKind.RW));
                }
            }
        }));
    }

    // ---- anomalies that are not cycles ----

    /**
     * Elle's {@code g1a-cases} and {@code g1b-cases} (every read of every ok op: a value a failed
     * op wrote; a value some other op, invocations included, overwrote within itself), and
     * isowatch's garbage-read (a non-nil value no invocation wrote to that key).
     */
    private void badReads() {
        Map<Long, Set<Long>> failed = new HashMap<>();
        Map<Long, Map<Long, Txn>> intermediate = new HashMap<>();
        Map<Long, Set<Long>> written = new HashMap<>();
        for (Txn t : txns) {
            Map<Long, Long> last = new HashMap<>();
            for (MicroOp m : t.invoke.value()) {
                if (m instanceof MicroOp.Write w) {
                    Long previous = last.put(w.key(), w.value());
                    if (previous != null) {
                        intermediate.computeIfAbsent(w.key(), k -> new HashMap<>()).put(previous, t);
                    }
                    written.computeIfAbsent(w.key(), k -> new HashSet<>()).add(w.value());
                    if (t.type() == OpType.FAIL) {
                        failed.computeIfAbsent(w.key(), k -> new HashSet<>()).add(w.value());
                    }
                }
            }
        }
        boolean externalOnly = deviations.contains(Deviation.EXTERNAL_BAD_READS_ONLY);
        for (Txn t : txns) {
            if (!t.ok()) {
                continue;
            }
            Map<Long, Ver> ext = extReads(t.value());
            Set<Long> firstSeen = new HashSet<>();
            for (MicroOp m : t.value()) {
                boolean external = firstSeen.add(m.key()) && ext.containsKey(m.key());
                if (!(m instanceof MicroOp.Read r) || r.length() == 0 || (externalOnly && !external)) {
                    continue;
                }
                long v = r.values()[0];
                boolean aborted = failed.getOrDefault(r.key(), Set.of()).contains(v);
                if (aborted) {
                    found.add("G1a");
                }
                Txn writer = intermediate.getOrDefault(r.key(), Map.of()).get(v);
                boolean failedFirst = aborted && writer != null && writer.completion != null
                        && writer.completion.index() < t.completion.index();
                if (writer != null && writer != t
                        && !(failedFirst && deviations.contains(Deviation.ABORTED_INTERMEDIATE_NOT_G1B))) {
                    found.add("G1b");
                }
                if (!written.getOrDefault(r.key(), Set.of()).contains(v)) {
                    found.add("garbage-read");
                }
            }
        }
    }

    /**
     * Elle's {@code op-internal-case}: a read must equal the op's latest write or read of the key,
     * a nil read included (a key not yet seen is Elle's {@code ::unknown}, absent here): since
     * jepsen-io/elle 8a5e27b, nil then a value is internal.
     */
    static boolean internal(List<MicroOp> mops) {
        Map<Long, Ver> state = new HashMap<>();
        for (MicroOp m : mops) {
            if (m instanceof MicroOp.Write w) {
                state.put(w.key(), Ver.of(w.value()));
            } else if (m instanceof MicroOp.Read r) {
                Ver expected = state.get(r.key());
                if (expected != null && !expected.equals(read(r))) {
                    return true;
                }
                state.put(r.key(), read(r));
            }
        }
        return false;
    }

    /**
     * Elle's {@code lost-update-cases}: two ok ops that read the same version of a key (their
     * first read of it, nil included) and then wrote it; a write before any read does not count.
     */
    private boolean lostUpdate() {
        Map<Long, Map<Ver, Integer>> counts = new HashMap<>();
        for (Txn t : txns) {
            if (!t.ok()) {
                continue;
            }
            Map<Long, Ver> reads = new HashMap<>();
            Set<Long> writes = new HashSet<>();
            for (MicroOp m : t.value()) {
                Ver readValue = reads.get(m.key());
                if (m instanceof MicroOp.Write && !writes.contains(m.key())) {
                    if (readValue != null) {
                        if (counts.computeIfAbsent(m.key(), k -> new HashMap<>()).merge(readValue, 1, Integer::sum) >= 2) {
                            return true;
                        }
                        writes.add(m.key());
                    }
                } else if (m instanceof MicroOp.Read r && readValue == null) {
                    reads.put(r.key(), read(r));
                }
            }
        }
        return false;
    }

    /** Every type found, reportable or not (for tests of the reference itself). */
    SortedSet<String> found() {
        return found;
    }

    /**
     * The departures the checker still has, which properties tolerate. None now: each constant of
     * {@link Deviation} was a bug, since fixed; the reference keeps imitating them so its own
     * tests can show what each one changed.
     */
    static EnumSet<Deviation> knownDeviations() {
        return EnumSet.noneOf(Deviation.class);
    }
}
