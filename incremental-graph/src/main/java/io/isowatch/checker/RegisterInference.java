package io.isowatch.checker;

import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.collect.LongIntMap;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.MicroOp;
import io.isowatch.history.MicroOpList;
import io.isowatch.history.Op;
import io.isowatch.trace.ReadSettling;
import io.isowatch.trace.RegisterTrace;
import io.isowatch.trace.TraceListener;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Elle's rw-register inference: wr edges from the unique write a read saw, and ww and rw edges
 * from a version order built from the initial nil state and, when the user assumes them, writes
 * following reads, per-process order and realtime order (see {@link RegisterOptions}).
 *
 * <p>Per-process order is exact: the next committed transaction of the same process that touches
 * the key. Realtime order follows, per key, the transactions not yet succeeded by a later one
 * touching the key (the transitive reduction of realtime order restricted to the key). Elle
 * derives it by compressing its realtime graph, which can add edges implied by transitivity;
 * those change no cycle's existence, only, rarely, its classification.
 *
 * <p>Eviction ({@link #evictBelow}) keeps the initial-state inference, which is exact online,
 * and gives up the assumed sources for the rest of the run: see {@link #forgetAssumedSources}.
 */
final class RegisterInference implements Inference {

    static final String WFR = "wfr-keys";
    static final String SEQUENTIAL = "sequential-keys";
    static final String LINEARIZABLE = "linearizable-keys";
    private static final int RECENT_SLOTS = 256;

    private final InferenceContext context;
    /** The sources assumed; none once a transaction was evicted ({@link #forgetAssumedSources}). */
    private RegisterOptions options;
    private final TraceFindings findings;
    private final ReadSettling settling;
    /** Made once: a lambda written at the lookup would be a new object per miss. */
    private final Function<Long, RegisterTrace> newTrace;
    private final LostUpdates lostUpdates = new LostUpdates();
    private Map<Long, RegisterTrace> traces = new HashMap<>();
    /** sequential-keys: per process, the last committed transaction's final value of each key. */
    private Map<Long, Map<Long, Value>> lastByProcess = new HashMap<>();
    /** linearizable-keys: Elle's realtime graph, compressed per key. */
    private RealtimeVersionOrder realtime = new RealtimeVersionOrder();

    /** A register value, or nil. */
    record Value(boolean nil, long value) {
        static final Value NIL = new Value(true, 0);
    }


    RegisterInference(InferenceContext context, RegisterOptions options) {
        this(context, options, ReadSettling.atTheEnd());
    }

    /** An inference whose traces judge garbage reads as {@code settling} says. */
    RegisterInference(InferenceContext context, RegisterOptions options, ReadSettling settling) {
        this.context = context;
        this.options = options;
        this.settling = settling;
        this.newTrace = key -> new RegisterTrace(key, settling);
        this.findings = new TraceFindings(context);
    }

    /**
     * The traces {@link #trace} returned recently, one slot per key's low bits: the keys a history
     * works on at any time are few (Jepsen retires a key after a number of writes), so nearly
     * every lookup is answered here instead of boxing the key for the map.
     */
    private RegisterTrace[] recent = new RegisterTrace[RECENT_SLOTS];

    private RegisterTrace trace(long key) {
        int slot = (int) key & (RECENT_SLOTS - 1);
        RegisterTrace t = recent[slot];
        if (t == null || t.key() != key) {
            t = traces.computeIfAbsent(key, newTrace);
            recent[slot] = t;
        }
        return t;
    }

    @Override
    public void invoked(int txn, Op invocation, boolean timeKnown) {
        List<MicroOp> mops = invocation.value();
        for (int i = 0; i < mops.size(); i++) {
            if (!(mops.get(i) instanceof MicroOp.Write write)) {
                continue;
            }
            boolean intermediate = TransactionChecks.writtenAgainLater(mops, i);
            int other = trace(write.key()).claim(write.value(), txn, intermediate, findings);
            if (other != LongIntMap.MISSING) {
                throw context.violation(invocation, Messages.duplicateWrite(invocation, context.render(write.key()),
                        context.render(write.value()), context.invokeIndex(other)));
            }
        }
        if (options.linearizableKeys()) {
            realtime.invoked(txn, timeKnown);
        }
    }

    @Override
    public boolean[] completed(int txn, Op completion, byte outcome) {
        List<MicroOp> mops = completion.value();
        if (outcome == TxnTable.OK) {
            requireSingleValues(completion); // the only reads Elle's rw-register uses
        }
        if (outcome == TxnTable.FAIL) {
            for (int i = 0; i < mops.size(); i++) {
                if (mops.get(i) instanceof MicroOp.Write w && trace(w.key()).writerOf(w.value()) == txn) {
                    trace(w.key()).abortedWrite(txn, w.value(), findings);
                }
            }
        }
        if (outcome == TxnTable.OK) {
            // Elle's ext-writes (each key's last write, keys in the order first written) and
            // ext-reads (each key's first read, unless the key was written before), found by
            // scanning the few micro-ops rather than building maps for every transaction.
            for (int i = 0; i < mops.size(); i++) {
                if (mops.get(i) instanceof MicroOp.Write && firstWriteOfKey(mops, i)) {
                    long key = mops.get(i).key();
                    long value = lastWrite(mops, i);
                    if (trace(key).writerOf(value) == txn) {
                        trace(key).committedWrite(txn, value, context, findings);
                    }
                }
            }
            for (int i = 0; i < mops.size(); i++) {
                if (mops.get(i) instanceof MicroOp.Read r && firstTouchOfKey(mops, i)) {
                    trace(r.key()).committedRead(txn, r.length() == 0, r.length() == 0 ? 0 : r.values()[0], context,
                            findings);
                }
            }
            laterReads(txn, mops);
            checkAlone(txn, mops);
        }
        if (!options.any()) {
            return new boolean[mops.size()];
        }
        Map<Long, Value> reads = outcome == TxnTable.OK ? externalReads(mops) : Map.of();
        Map<Long, Long> writes = outcome == TxnTable.FAIL ? Map.of() : externalWrites(mops);
        if (outcome == TxnTable.OK) {
            if (options.wfrKeys()) {
                for (Map.Entry<Long, Value> r : reads.entrySet()) {
                    Long written = writes.get(r.getKey());
                    if (written != null && !r.getValue().nil()) {
                        versionEdge(r.getKey(), r.getValue(), new Value(false, written), WFR);
                    }
                }
            }
            if (options.sequentialKeys()) {
                sequential(txn, reads, writes);
            }
        }
        if (options.linearizableKeys()) {
            linearizable(txn, outcome, reads, writes);
        }
        return new boolean[mops.size()];
    }

    /**
     * Elle's op-internal-case, the first one only: a read must equal the transaction's own latest
     * write or read of the key, a read of nil included: nil read, then a value of the key with no
     * write of the transaction between, is internal, expected nil (jepsen-io/elle 8a5e27b,
     * rw_register.clj 88-99; docs/elle-compatibility.md). The latest earlier micro-op on the key
     * says what is expected, so a backward scan replaces a map of the state.
     */
    private static final long[] NIL_EXPECTED = new long[0];

    private void reportFirstInternalCase(int txn, List<MicroOp> mops) {
        if (!MicroOpList.mayRepeatKey(mops)) {
            return; // no read has an earlier step on its key
        }
        for (int i = 0; i < mops.size(); i++) {
            if (!(mops.get(i) instanceof MicroOp.Read r)) {
                continue;
            }
            for (int j = i - 1; j >= 0; j--) {
                MicroOp earlier = mops.get(j);
                if (earlier.key() != r.key()) {
                    continue;
                }
                if (earlier instanceof MicroOp.Read e && e.length() == 0) {
                    if (r.length() > 0) { // nil, then a value: expected nil, written as no value
                        context.report(new Finding.Internal(context.txn(txn), i, NIL_EXPECTED, false));
                        return;
                    }
                    break;
                }
                long expected = earlier instanceof MicroOp.Write w ? w.value() : ((MicroOp.Read) earlier).values()[0];
                if (r.length() == 0 || r.values()[0] != expected) {
                    context.report(new Finding.Internal(context.txn(txn), i, new long[] {expected}, false));
                    return;
                }
                break;
            }
        }
    }

    /** Whether micro-op {@code i} is the first of the transaction's micro-ops on its key. */
    private static boolean firstTouchOfKey(List<MicroOp> mops, int i) {
        long key = mops.get(i).key();
        for (int j = 0; j < i; j++) {
            if (mops.get(j).key() == key) {
                return false;
            }
        }
        return true;
    }

    /** Whether the write at {@code i} is the transaction's first write of its key. */
    private static boolean firstWriteOfKey(List<MicroOp> mops, int i) {
        long key = mops.get(i).key();
        for (int j = 0; j < i; j++) {
            if (mops.get(j) instanceof MicroOp.Write && mops.get(j).key() == key) {
                return false;
            }
        }
        return true;
    }

    /** The value of the transaction's last write of the key written at {@code i}. */
    private static long lastWrite(List<MicroOp> mops, int i) {
        long key = mops.get(i).key();
        long value = ((MicroOp.Write) mops.get(i)).value();
        for (int j = i + 1; j < mops.size(); j++) {
            if (mops.get(j) instanceof MicroOp.Write w && w.key() == key) {
                value = w.value();
            }
        }
        return value;
    }

    /** Reads other than a transaction's external ones, which Elle's G1a and G1b also judge. */
    private void laterReads(int txn, List<MicroOp> mops) {
        if (!MicroOpList.mayRepeatKey(mops)) {
            return; // every read is its key's first touch
        }
        for (int i = 0; i < mops.size(); i++) {
            if (mops.get(i) instanceof MicroOp.Read r && r.length() > 0 && !firstTouchOfKey(mops, i)) {
                trace(r.key()).committedLaterRead(txn, r.values()[0], context, findings);
            }
        }
    }

    private void checkAlone(int txn, List<MicroOp> mops) {
        reportFirstInternalCase(txn, mops);
        for (int i = 0; i < mops.size(); i++) {
            if (mops.get(i) instanceof MicroOp.Read r) {
                long seen = r.length() == 0 ? TraceListener.NIL : r.values()[0];
                int group = lostUpdates.record(txn, mops, i, seen);
                if (group >= 0) {
                    context.report(lostUpdate(group));
                }
            }
        }
    }

    private void sequential(int txn, Map<Long, Value> reads, Map<Long, Long> writes) {
        Map<Long, Value> last = lastByProcess.computeIfAbsent(context.txn(txn).completion().process(),
                p -> new HashMap<>());
        for (long key : touched(reads, writes)) {
            Value previous = last.get(key);
            if (previous != null) {
                versionEdge(key, previous, first(key, reads, writes), SEQUENTIAL);
            }
            last.put(key, finalValue(key, reads, writes));
        }
    }

    private void linearizable(int txn, byte outcome, Map<Long, Value> reads, Map<Long, Long> writes) {
        if (outcome == TxnTable.FAIL) {
            realtime.completed(txn, false, Map.of());
            return;
        }
        // Elle: a committed transaction's first value of a key is its read (unless nil) or its
        // write; one with an unknown outcome counts only for the keys it wrote.
        Map<Long, RealtimeVersionOrder.Touch> touched = new LinkedHashMap<>();
        if (outcome == TxnTable.OK) {
            for (long key : touched(reads, writes)) {
                touched.put(key, new RealtimeVersionOrder.Touch(first(key, reads, writes),
                        finalValue(key, reads, writes)));
            }
        } else {
            for (Map.Entry<Long, Long> w : writes.entrySet()) {
                Value v = new Value(false, w.getValue());
                touched.put(w.getKey(), new RealtimeVersionOrder.Touch(v, v));
            }
        }
        for (Map.Entry<Long, RealtimeVersionOrder.Touch> e : touched.entrySet()) {
            for (Value before : realtime.previousValues(txn, e.getKey())) {
                versionEdge(e.getKey(), before, e.getValue().first(), LINEARIZABLE);
            }
        }
        realtime.completed(txn, outcome == TxnTable.OK, touched);
    }

    /** One inferred version order, kept until the history settles. */
    private record VersionEdge(long key, Value before, Value after) {
    }

    private Map<String, List<VersionEdge>> pendingBySource = new LinkedHashMap<>();

    private void versionEdge(long key, Value before, Value after, String source) {
        pendingBySource.computeIfAbsent(source, s -> new ArrayList<>()).add(new VersionEdge(key, before, after));
    }

    /**
     * Elle's version-graphs: sources in order (writes-follow-reads, then per-process, then
     * realtime), each added whole to the graphs built so far; a source that makes any key's
     * versions cyclic is reported (each such key, with the sources tried) and dropped, and the
     * edges of each source kept become ww and rw edges.
     */
    private void applySources() {
        List<String> sources = new ArrayList<>(List.of("initial-state"));
        for (String source : List.of(WFR, SEQUENTIAL, LINEARIZABLE)) {
            List<VersionEdge> edges = pendingBySource.getOrDefault(source, List.of());
            if (edges.isEmpty()) {
                continue;
            }
            sources.add(source);
            List<VersionEdge> added = new ArrayList<>();
            Map<Long, long[]> cycles = new LinkedHashMap<>();
            for (VersionEdge e : edges) {
                long[] cycle = trace(e.key()).tryVersionEdge(e.before().nil(), e.before().value(),
                        e.after().nil(), e.after().value());
                if (cycle == null) {
                    continue;
                }
                if (cycle.length > 0) {
                    cycles.putIfAbsent(e.key(), cycle);
                }
                if (!e.after().nil()) {
                    added.add(e);
                }
            }
            if (cycles.isEmpty()) {
                for (VersionEdge e : added) {
                    trace(e.key()).infer(e.before().value(), e.after().value(), context, findings);
                }
            } else {
                for (VersionEdge e : added) {
                    trace(e.key()).retract(e.before().value(), e.after().value());
                }
                String tried = String.join(", ", sources);
                for (Map.Entry<Long, long[]> c : cycles.entrySet()) {
                    findings.cyclicVersions(c.getKey(), c.getValue(), tried);
                }
                sources.remove(sources.size() - 1);
            }
        }
    }

    private static List<Long> touched(Map<Long, Value> reads, Map<Long, Long> writes) {
        List<Long> keys = new ArrayList<>(reads.keySet());
        for (Long k : writes.keySet()) {
            if (!reads.containsKey(k)) {
                keys.add(k);
            }
        }
        return keys;
    }

    /** Elle: a transaction's first external value of a key is its read, unless that read was nil. */
    private static Value first(long key, Map<Long, Value> reads, Map<Long, Long> writes) {
        Value read = reads.get(key);
        if (read != null && !read.nil()) {
            return read;
        }
        Long w = writes.get(key);
        return w != null ? new Value(false, w) : Value.NIL;
    }

    /** Elle: a transaction's final external value of a key is its last write, else its read. */
    private static Value finalValue(long key, Map<Long, Value> reads, Map<Long, Long> writes) {
        Long w = writes.get(key);
        if (w != null) {
            return new Value(false, w);
        }
        Value read = reads.get(key);
        return read == null ? Value.NIL : read;
    }

    /** Reads of keys before any write of them, first read only: Elle's ext-reads. */
    private static Map<Long, Value> externalReads(List<MicroOp> mops) {
        Map<Long, Value> reads = new LinkedHashMap<>();
        java.util.Set<Long> written = new java.util.HashSet<>();
        for (MicroOp m : mops) {
            if (m instanceof MicroOp.Write) {
                written.add(m.key());
            } else if (m instanceof MicroOp.Read r && !written.contains(r.key()) && !reads.containsKey(r.key())) {
                reads.put(r.key(), valueOf(r));
            }
        }
        return reads;
    }

    /** The last write of each key: Elle's ext-writes. */
    private static Map<Long, Long> externalWrites(List<MicroOp> mops) {
        Map<Long, Long> writes = new LinkedHashMap<>();
        for (MicroOp m : mops) {
            if (m instanceof MicroOp.Write w) {
                writes.put(w.key(), w.value());
            }
        }
        return writes;
    }

    /** A register read's value: nil when the read returned null or no value, else its one value. */
    static Value valueOf(MicroOp.Read r) {
        return r.length() == 0 ? Value.NIL : new Value(false, r.values()[0]);
    }

    /**
     * A register read returns one value or nil (the core, and the agent, write a register's nil
     * as an empty read: {@link MicroOp.Read}). A list of several values is no register value;
     * taking its first would check something the history does not say, so it is refused.
     */
    private void requireSingleValues(Op completion) {
        List<MicroOp> mops = completion.value();
        for (int i = 0; i < mops.size(); i++) {
            if (mops.get(i) instanceof MicroOp.Read r && r.length() > 1) {
                StringBuilder list = new StringBuilder("[");
                for (long v : r.values()) {
                    list.append(list.length() > 1 ? " " : "").append(context.render(v));
                }
                throw context.violation(completion, Messages.registerReadOfList(completion, i + 1,
                        context.render(r.key()), list.append(']').toString()));
            }
        }
    }

    private final LostUpdates.VersionText versions = (key, v) -> v == TraceListener.NIL ? null : new long[] {v};

    private Finding lostUpdate(int group) {
        return lostUpdates.finding(group, versions, context::txn);
    }

    @Override
    public List<Finding> lostUpdates() {
        return lostUpdates.findings(versions, context::txn);
    }

    @Override
    public void settle() {
        applySources();
        traces.values().forEach(t -> t.settle(findings));
    }

    /**
     * Forgets the transactions below {@code cut} and renumbers the rest by {@code -cut} (the
     * eviction contract): each trace keeps what its retained transactions need
     * ({@link RegisterTrace#evictBelow}), and a trace left referencing none is dropped, so the
     * traces of retired keys go. Lost updates evict their own groups. Time linear in the traces'
     * size; call between events, before {@link #settle()}.
     */
    @Override
    public void evictBelow(int cut) {
        if (cut < 0) {
            throw new IllegalArgumentException("evictBelow(" + cut + "): the cut is a transaction id, never negative");
        }
        if (cut == 0) {
            return;
        }
        forgetAssumedSources();
        Map<Long, RegisterTrace> kept = new HashMap<>();
        for (Map.Entry<Long, RegisterTrace> e : traces.entrySet()) {
            if (e.getValue().evictBelow(cut)) {
                kept.put(e.getKey(), e.getValue());
            } else {
                settling.dropped(e.getKey());
            }
        }
        traces = kept; // a new map, sized for what is kept
        recent = new RegisterTrace[RECENT_SLOTS];
        lostUpdates.evictBelow(cut);
    }

    /**
     * Gives up writes-follow-reads, per-process and realtime version orders for the rest of the
     * run, with everything gathered for them. Elle applies each such source whole or not at all:
     * it drops a source when the source makes any key's versions cyclic, anywhere in the
     * history. After an eviction that is no longer decidable: the completion of a forgotten
     * transaction still pending is skipped, and its inferences (a read and a write of its own,
     * its place in its process and in real time) may be the ones that close such a cycle. A
     * source that looks acyclic here could then be one the whole history drops, and its ww and
     * rw edges would be edges the whole history does not have. So none are made, and no
     * {@code cyclic-versions} is reported; the initial-state inference stays exact. In a running
     * job nothing is lost by this, since the assumed sources are applied only when the history
     * ends (decision 0009); a bounded history that evicts loses them.
     */
    private void forgetAssumedSources() {
        options = RegisterOptions.NONE;
        pendingBySource = new LinkedHashMap<>();
        lastByProcess = new HashMap<>();
        realtime = new RealtimeVersionOrder();
    }

    /** The keys whose traces are held, for tests of eviction. */
    java.util.Set<Long> keysHeld() {
        return java.util.Set.copyOf(traces.keySet());
    }

    @Override
    public long[] prefix(long key, int length) {
        throw new IllegalStateException("register reads are never stored as prefixes");
    }

    @Override
    public Evidence explain(int a, int b, EdgeKind kind) {
        List<MicroOp> aOps = context.microOps(a);
        List<MicroOp> bOps = context.microOps(b);
        Map<Long, Long> bWrites = externalWrites(bOps);
        switch (kind) {
            case WR -> {
                Map<Long, Value> bReads = externalReads(bOps);
                for (Map.Entry<Long, Long> w : externalWrites(aOps).entrySet()) {
                    Value r = bReads.get(w.getKey());
                    if (r != null && !r.nil() && r.value() == w.getValue()) {
                        return new Evidence.WriteRead(w.getKey(), w.getValue());
                    }
                }
                return null;
            }
            case WW -> {
                for (Map.Entry<Long, Long> w : externalWrites(aOps).entrySet()) {
                    Long later = bWrites.get(w.getKey());
                    RegisterTrace t = traces.get(w.getKey());
                    if (later != null && t != null && t.precedes(false, w.getValue(), later)) {
                        return new Evidence.WriteWrite(w.getKey(), w.getValue(), later);
                    }
                }
                return null;
            }
            case RW -> {
                for (Map.Entry<Long, Value> r : externalReads(aOps).entrySet()) {
                    Long later = bWrites.get(r.getKey());
                    RegisterTrace t = traces.get(r.getKey());
                    if (later != null && t != null && t.precedes(r.getValue().nil(), r.getValue().value(), later)) {
                        return new Evidence.ReadWrite(r.getKey(), r.getValue().nil(), r.getValue().value(), later);
                    }
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }
}
