package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Boundary;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.collect.IntList;
import io.isowatch.collect.LongIntMap;
import io.isowatch.graph.DependencyGraph;
import io.isowatch.graph.EdgeKind;
import io.isowatch.graph.MutableDependencyGraph;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.trace.ListAppendTrace;
import io.isowatch.trace.ListAppendTraces;
import io.isowatch.trace.TraceListener;
import io.isowatch.trace.TxnStatus;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Checks a list-append history one event at a time, with Elle's semantics, and reports each
 * anomaly the moment the events seen prove it.
 *
 * <p>Events may arrive up to {@link CheckerOptions#reorderWindow()} positions out of index
 * order; a {@link ReorderBuffer} restores the order before anything else looks at them. Each
 * completion then feeds the keys' version traces (which infer ww, wr and rw edges and per-key
 * findings), the transaction's own checks (internal, future-read, lost-update), and the session
 * orders (process or realtime edges, whichever the requested models need, as Elle chooses).
 * Every edge goes to the dependency graph, whose components are kept incrementally; an edge that
 * closes a cycle triggers a search for each cycle type through it. {@link #finish()} settles what
 * needed the whole history (appends nobody read) and returns the verdict.
 *
 * <p>Findings are final: once reported they are never retracted. The verdict's anomaly list
 * follows Elle's reporting rules, so a cycle type that Elle would not report for the final graph
 * (implied by another in the same component) is streamed but left out of the verdict.
 *
 * <p>Not thread-safe; one thread feeds one checker. Throws {@link HistoryViolationException} for
 * a malformed history.
 */
public final class IncrementalChecker {

    /** Marks a process with no open invocation in {@link #openTxn}. */
    private static final int NONE = -1;

    private final CheckerOptions options;
    private final AtomTable atoms;
    private final Consumer<Finding> listener;
    private final Set<String> reportable;
    private final Set<String> prohibited;
    private final boolean realtime;
    private final boolean process;

    private final ReorderBuffer reorder;
    private final TxnTable txns = new TxnTable();
    private final ListAppendTraces traces = new ListAppendTraces();
    private final MutableDependencyGraph graph = new MutableDependencyGraph();
    private final CycleFinder cycles;
    private final EdgeExplainer explainer;
    private final TxnStatus status = new Status();
    private final TraceListener traceListener = new TraceFindings();
    private final CycleFinder.CycleExplainer cycleExplainer = new CycleFindings();
    private final Consumer<Op> processEvent = this::process;

    private final LongIntMap openTxn = new LongIntMap();
    private final LongIntMap crashed = new LongIntMap();
    private final LongIntMap lastCommitted = new LongIntMap();
    private final IntList realtimeFrontier = new IntList();
    private int[][] realtimePredecessors = new int[1024][];
    private final LostUpdates lostUpdates = new LostUpdates();
    private final List<Finding> findings = new ArrayList<>();

    private Op current;
    private int currentTxn = -1;
    private long events;
    private long ok;
    private long info;
    private long fail;
    private boolean finished;
    private boolean realtimeEdgeToFailed;

    public IncrementalChecker(CheckerOptions options, AtomTable atoms, Consumer<Finding> listener) {
        this.options = Objects.requireNonNull(options, "options");
        this.atoms = Objects.requireNonNull(atoms, "atoms");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.reportable = ConsistencyModels.reportableAnomalyTypes(options.consistencyModels(), options.anomalies());
        this.prohibited = ConsistencyModels.prohibitedAnomalyTypes(options.consistencyModels(), options.anomalies());
        this.realtime = ConsistencyModels.realtimeNeeded(reportable);
        this.process = !realtime && ConsistencyModels.processNeeded(reportable);
        this.reorder = new ReorderBuffer(options.reorderWindow());
        this.cycles = new CycleFinder(graph, realtime, process, options.cycleSearchBudget());
        this.explainer = new EdgeExplainer(txns, traces, this::microOps);
    }

    /** Checks with the given options and collects nothing while streaming. */
    public IncrementalChecker(CheckerOptions options, AtomTable atoms) {
        this(options, atoms, f -> { });
    }

    /** Takes the next event. */
    public void accept(Op op) {
        if (finished) {
            throw new IllegalStateException("accept() after finish(): this checker has already given its verdict");
        }
        reorder.offer(op, processEvent);
    }

    /** Events taken so far. */
    public long events() {
        return events;
    }

    /** Transactions completed so far. */
    public long transactions() {
        return ok + info + fail;
    }

    /** Findings reported so far. */
    public int findingCount() {
        return findings.size();
    }

    /** The dependency graph as it stands (read-only). */
    public DependencyGraph graph() {
        return graph;
    }

    /** Whether realtime edges are part of the graph (the requested models need them). */
    public boolean usesRealtime() {
        return realtime;
    }

    /** Whether process edges are part of the graph. */
    public boolean usesProcess() {
        return process;
    }

    private void process(Op op) {
        events++;
        if (op.type() == OpType.INVOKE) {
            invoke(op);
        } else {
            complete(op);
        }
    }

    // ---- invocations ----

    private void invoke(Op op) {
        long p = op.process();
        int open = openTxn.get(p);
        if (open != LongIntMap.MISSING && open != NONE) {
            throw new HistoryViolationException(op, Messages.doubleInvoke(op, invocationOf(open)));
        }
        int crash = crashed.get(p);
        if (crash != LongIntMap.MISSING) {
            throw new HistoryViolationException(op, Messages.reusedAfterInfo(op, completionOf(crash)));
        }
        int id = txns.invoke(op);
        openTxn.put(p, id);
        graph.ensureNode(id);
        claimAppends(op, id);
        if (realtime) {
            if (id >= realtimePredecessors.length) {
                realtimePredecessors = Arrays.copyOf(realtimePredecessors, realtimePredecessors.length * 2);
            }
            realtimePredecessors[id] = realtimeFrontier.toArray();
        }
    }

    private void claimAppends(Op op, int id) {
        List<MicroOp> mops = op.value();
        for (int i = 0; i < mops.size(); i++) {
            if (!(mops.get(i) instanceof MicroOp.Append append)) {
                continue;
            }
            boolean intermediate = false;
            for (int j = i + 1; j < mops.size(); j++) {
                if (mops.get(j) instanceof MicroOp.Append later && later.key() == append.key()) {
                    intermediate = true;
                    break;
                }
            }
            int other = traces.trace(append.key()).claim(append.value(), id, intermediate);
            if (other != LongIntMap.MISSING) {
                throw new HistoryViolationException(op, Messages.duplicateAppend(op, atoms.render(append.key()),
                        atoms.render(append.value()), txns.invokeIndex(other)));
            }
        }
    }

    // ---- completions ----

    private void complete(Op op) {
        long p = op.process();
        int id = openTxn.get(p);
        if (id == LongIntMap.MISSING || id == NONE) {
            throw new HistoryViolationException(op, Messages.orphanCompletion(op));
        }
        openTxn.put(p, NONE);
        current = op;
        currentTxn = id;
        byte outcome = TxnTable.statusOf(op.type());
        List<MicroOp> mops = op.value();
        boolean[] prefixRead = new boolean[mops.size()];
        txns.complete(id, op);
        switch (outcome) {
            case TxnTable.OK -> ok++;
            case TxnTable.INFO -> {
                info++;
                crashed.put(p, id);
            }
            default -> fail++;
        }
        for (MicroOp m : mops) {
            if (m instanceof MicroOp.Append append) {
                ListAppendTrace trace = traces.trace(append.key());
                if (trace.writerOf(append.value()) == id) {
                    trace.writerCompleted(id, append.value(), status, traceListener);
                }
            }
        }
        if (outcome != TxnTable.FAIL) {
            for (int i = 0; i < mops.size(); i++) {
                if (mops.get(i) instanceof MicroOp.Read read && read.known()) {
                    prefixRead[i] = traces.trace(read.key())
                            .read(id, read.values(), outcome == TxnTable.OK, status, traceListener);
                }
            }
        }
        if (outcome == TxnTable.OK) {
            checkAlone(id, mops, prefixRead);
        }
        sessionEdges(id, outcome);
        txns.storeMicroOps(id, mops, prefixRead);
        current = null;
        currentTxn = -1;
    }

    private void checkAlone(int id, List<MicroOp> mops, boolean[] prefixRead) {
        TransactionChecks.InternalCase internal = TransactionChecks.internal(mops);
        if (internal != null) {
            report(new Finding.Internal(txn(id), internal.mopIndex(), internal.expected(), internal.unknownPrefix()));
        }
        TransactionChecks.FutureReadCase future = TransactionChecks.futureRead(mops);
        if (future != null) {
            report(new Finding.BadRead(AnomalyType.FUTURE_READ, txn(id), future.mopIndex(), future.element(), null));
        }
        int pair = lostUpdates.record(id, mops, prefixRead);
        if (pair >= 0) {
            report(new Finding.LostUpdate(lostUpdates.key(pair), lostUpdates.value(pair, this::prefix),
                    lostUpdates.members(pair).stream().map(this::txn).toList()));
        }
    }

    private void sessionEdges(int id, byte outcome) {
        if (realtime) {
            int[] before = realtimePredecessors[id];
            realtimePredecessors[id] = null;
            if (outcome != TxnTable.FAIL) {
                for (int p : before) {
                    link(p, id, EdgeKind.REALTIME);
                }
            } else if (before.length > 0) {
                // Elle links realtime predecessors to failed transactions too; such edges can
                // close no cycle, so they are not stored, but they make Elle's graph non-empty.
                realtimeEdgeToFailed = true;
            }
            if (outcome == TxnTable.OK) {
                for (int p : before) {
                    for (int i = 0; i < realtimeFrontier.size(); i++) {
                        if (realtimeFrontier.get(i) == p) {
                            realtimeFrontier.swapRemove(i);
                            break;
                        }
                    }
                }
                realtimeFrontier.add(id);
            }
        }
        if (process && outcome == TxnTable.OK) {
            long p = txns.process(id);
            int previous = lastCommitted.put(p, id);
            if (previous != LongIntMap.MISSING) {
                link(previous, id, EdgeKind.PROCESS);
            }
        }
    }

    private void link(int from, int to, EdgeKind kind) {
        if (graph.addEdge(from, to, kind)) {
            cycles.edgeAdded(from, to, cycleExplainer, this::report);
        }
    }

    private void report(Finding finding) {
        findings.add(finding);
        listener.accept(finding);
    }

    // ---- the end ----

    /**
     * Settles everything that waited for the whole history and returns the verdict. Call once,
     * after the last event.
     */
    public Verdict finish() {
        if (finished) {
            throw new IllegalStateException("finish() called twice");
        }
        reorder.flush(processEvent);
        finished = true;
        traces.forEach(trace -> trace.settle(status, traceListener));
        if (graph.edgeCount() == 0 && !realtimeEdgeToFailed) {
            report(new Finding.Undecided(AnomalyType.EMPTY_TRANSACTION_GRAPH,
                    "no dependency between any two transactions could be inferred", List.of()));
        }
        return verdict();
    }

    private Verdict verdict() {
        Map<AnomalyType, List<Finding>> all = new EnumMap<>(AnomalyType.class);
        for (Finding f : findings) {
            if (!f.type().isCycle() && f.type() != AnomalyType.LOST_UPDATE) {
                all.computeIfAbsent(f.type(), t -> new ArrayList<>()).add(f);
            }
        }
        for (Finding f : cycles.finalFindings()) {
            all.computeIfAbsent(f.type(), t -> new ArrayList<>()).add(f);
        }
        for (int g : lostUpdates.groups()) {
            all.computeIfAbsent(AnomalyType.LOST_UPDATE, t -> new ArrayList<>()).add(new Finding.LostUpdate(
                    lostUpdates.key(g), lostUpdates.value(g, this::prefix),
                    lostUpdates.members(g).stream().map(this::txn).toList()));
        }
        Map<AnomalyType, List<Finding>> shown = new LinkedHashMap<>();
        boolean bad = false;
        List<AnomalyType> types = new ArrayList<>();
        for (Map.Entry<AnomalyType, List<Finding>> e : all.entrySet()) {
            String name = e.getKey().elleName();
            if (reportable.contains(name)) {
                types.add(e.getKey());
                bad |= prohibited.contains(name);
            }
        }
        types.sort((a, b) -> a.elleName().compareTo(b.elleName()));
        for (AnomalyType t : types) {
            shown.put(t, List.copyOf(all.get(t)));
        }
        Verdict.Stats stats = new Verdict.Stats(ok + info + fail, ok, info, fail, events, graph.edgeCount());
        if (types.isEmpty()) {
            return new Verdict(Validity.TRUE, List.of(), Map.of(), new TreeSet<>(), new TreeSet<>(), stats);
        }
        Boundary boundary = ConsistencyModels.friendlyBoundary(all.keySet().stream().map(AnomalyType::elleName).toList());
        return new Verdict(bad ? Validity.FALSE : Validity.UNKNOWN, List.copyOf(types), shown,
                new TreeSet<>(boundary.not()), new TreeSet<>(boundary.alsoNot()), stats);
    }

    // ---- transactions as findings show them ----

    private long[] prefix(long key, int length) {
        return traces.trace(key).prefix(length);
    }

    /** A transaction's micro-ops; for the one being completed, those of its completion. */
    private List<MicroOp> microOps(int id) {
        return id == currentTxn && current != null ? current.value() : txns.microOps(id, this::prefix);
    }

    private Txn txn(int id) {
        if (id == currentTxn && current != null) {
            return new Txn(id, txns.invokeIndex(id), txns.invokeTime(id), current);
        }
        return txns.txn(id, this::prefix);
    }

    private Op invocationOf(int id) {
        return new Op(txns.invokeIndex(id), txns.invokeTime(id), OpType.INVOKE, txns.process(id), List.of());
    }

    private Op completionOf(int id) {
        return txns.txn(id, this::prefix).completion();
    }

    /** The index of the first read of {@code key} in {@code t} holding {@code element}, or -1. */
    private static int readHolding(Txn t, long key, long element) {
        List<MicroOp> mops = t.completion().value();
        for (int i = 0; i < mops.size(); i++) {
            if (mops.get(i) instanceof MicroOp.Read r && r.key() == key && r.known()) {
                for (long e : r.values()) {
                    if (e == element) {
                        return i;
                    }
                }
            }
        }
        return -1;
    }

    private static int readOf(Txn t, long key) {
        List<MicroOp> mops = t.completion().value();
        for (int i = 0; i < mops.size(); i++) {
            if (mops.get(i) instanceof MicroOp.Read r && r.key() == key && r.known()) {
                return i;
            }
        }
        return -1;
    }

    private final class Status implements TxnStatus {
        @Override
        public boolean pending(int t) {
            return txns.status(t) == TxnTable.PENDING;
        }

        @Override
        public boolean possible(int t) {
            return txns.possible(t);
        }

        @Override
        public boolean committed(int t) {
            return txns.status(t) == TxnTable.OK;
        }

        @Override
        public boolean failed(int t) {
            return txns.status(t) == TxnTable.FAIL;
        }
    }

    private final class TraceFindings implements TraceListener {
        @Override
        public void edge(int from, int to, EdgeKind kind) {
            link(from, to, kind);
        }

        @Override
        public void garbageRead(int reader, long key, long element) {
            Txn r = txn(reader);
            report(new Finding.BadRead(AnomalyType.GARBAGE_READ, r, readHolding(r, key, element), element, null));
        }

        @Override
        public void abortedRead(int reader, long key, long element, int writer) {
            Txn r = txn(reader);
            report(new Finding.BadRead(AnomalyType.G1A, r, readHolding(r, key, element), element, txn(writer)));
        }

        @Override
        public void intermediateRead(int reader, long key, long element, int writer) {
            Txn r = txn(reader);
            report(new Finding.BadRead(AnomalyType.G1B, r, readHolding(r, key, element), element, txn(writer)));
        }

        @Override
        public void duplicateElements(int reader, long key, Map<Long, Integer> counts) {
            Txn r = txn(reader);
            report(new Finding.DuplicateElements(r, readOf(r, key), counts));
        }

        @Override
        public void incompatibleOrder(long key, long[] shorter, long[] longer) {
            report(new Finding.IncompatibleOrder(key, shorter, longer));
        }

        @Override
        public void dirtyUpdate(long key, long[] values, int aborted, int committed) {
            report(new Finding.DirtyUpdate(key, values, txn(aborted), txn(committed)));
        }
    }

    private final class CycleFindings implements CycleFinder.CycleExplainer {
        @Override
        public Finding.Cycle cycle(AnomalyType type, int[] nodes, EdgeKind[] kinds) {
            Map<Integer, Txn> byId = new HashMap<>();
            List<Finding.Step> steps = new ArrayList<>(nodes.length);
            for (int i = 0; i < nodes.length; i++) {
                int a = nodes[i];
                int b = nodes[(i + 1) % nodes.length];
                Evidence why = explainer.explain(a, b, kinds[i]);
                steps.add(new Finding.Step(byId.computeIfAbsent(a, IncrementalChecker.this::txn),
                        byId.computeIfAbsent(b, IncrementalChecker.this::txn), why));
            }
            return new Finding.Cycle(type, steps);
        }

        @Override
        public Txn txn(int id) {
            return IncrementalChecker.this.txn(id);
        }
    }
}
