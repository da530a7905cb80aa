package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Drives a {@link ListAppendInference} through a history the way {@link IncrementalChecker} does
 * (dense ids at invocation, completions paired by process, nil reads of ok completions made
 * empty, reads that are prefixes kept only as their length), with nothing else: no graph, no
 * cycles. {@link #evictBelow} evicts as the checker must around the inference's own eviction:
 * the ids below the cut leave the table, the others shift, a forgotten pending transaction's
 * completion is skipped, and the run counts garbage reads from then on instead of reporting
 * them.
 *
 * <p>Edges and findings are recorded by the invocation indices of their transactions, so runs
 * with and without evictions can be compared. Every edge is checked as it arrives: both ends
 * must be transactions the table holds, completed ok or info (the inference may link a
 * transaction to itself, which the graph ignores).
 *
 * <p>The run also tracks keys by what touches them (an append at its invocation, a known read in
 * an ok or info completion): the keys held transactions touched ({@link #liveKeys}), and the
 * keys touched again after an eviction passed every transaction that had touched them
 * ({@link #restartedKeys}).
 */
final class InferenceRun implements InferenceContext {

    /** An edge, its transactions named by the history index of their invocation. */
    record Edge(long from, long to, EdgeKind kind) {
    }

    private static final int NONE = -1;

    private final ListAppendInference inference = new ListAppendInference(this);
    private final List<Op> invocations = new ArrayList<>();
    private final List<Op> completions = new ArrayList<>();
    private final List<boolean[]> prefixReads = new ArrayList<>();
    private final Map<Long, Integer> openByProcess = new HashMap<>();
    private final Set<Edge> edges = new LinkedHashSet<>();
    private final List<Finding> findings = new ArrayList<>();
    private boolean truncated;
    private int unverifiable;
    private final Set<Long> skipped = new TreeSet<>();
    private final Set<Long> everTouched = new HashSet<>();
    private final Set<Long> dropped = new HashSet<>();
    private final Set<Long> restarted = new TreeSet<>();
    private Op current;
    private int currentTxn = -1;

    /** Takes the next event; throws {@link HistoryViolationException} as the checker would. */
    void accept(Op op) {
        if (op.type() == OpType.INVOKE) {
            int id = invocations.size();
            invocations.add(op);
            completions.add(null);
            prefixReads.add(null);
            openByProcess.put(op.process(), id);
            touch(op);
            inference.invoked(id, op, true);
            return;
        }
        Op resolved = CompletedReads.resolve(op);
        Integer id = openByProcess.get(op.process());
        if (id == null && truncated) {
            skipped.add(op.index()); // its transaction was forgotten while pending
            return;
        }
        if (id == null || id == NONE) {
            throw new IllegalStateException("a completion without an invocation; the harness expects none: " + op);
        }
        openByProcess.put(op.process(), NONE);
        touch(resolved);
        completions.set(id, resolved);
        current = resolved;
        currentTxn = id;
        prefixReads.set(id, inference.completed(id, resolved, TxnTable.statusOf(resolved.type())));
        current = null;
        currentTxn = -1;
    }

    /** Evicts the transactions below {@code cut}, as the checker does around the inference. */
    void evictBelow(int cut) {
        inference.evictBelow(cut);
        invocations.subList(0, cut).clear();
        completions.subList(0, cut).clear();
        prefixReads.subList(0, cut).clear();
        for (Iterator<Map.Entry<Long, Integer>> it = openByProcess.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Integer> e = it.next();
            if (e.getValue() != NONE && e.getValue() < cut) {
                it.remove(); // pending and forgotten: its completion will be skipped
            } else if (e.getValue() != NONE) {
                e.setValue(e.getValue() - cut);
            }
        }
        truncated = true;
        dropped.addAll(everTouched);
        dropped.removeAll(liveKeys());
    }

    private void touch(Op op) {
        for (long key : touchedKeys(op)) {
            everTouched.add(key);
            if (dropped.contains(key)) {
                restarted.add(key);
            }
        }
    }

    /** The keys an event touches: an invocation's appends, an ok or info completion's known reads. */
    private static Set<Long> touchedKeys(Op op) {
        Set<Long> keys = new HashSet<>();
        for (MicroOp m : op.value()) {
            boolean read = m instanceof MicroOp.Read r && r.known() && (op.type() == OpType.OK || op.type() == OpType.INFO);
            if (op.type() == OpType.INVOKE ? m instanceof MicroOp.Append : read) {
                keys.add(m.key());
            }
        }
        return keys;
    }

    /** Keys a held transaction has touched. */
    Set<Long> liveKeys() {
        Set<Long> keys = new HashSet<>();
        for (int id = 0; id < invocations.size(); id++) {
            keys.addAll(touchedKeys(invocations.get(id)));
            if (completions.get(id) != null) {
                keys.addAll(touchedKeys(completions.get(id)));
            }
        }
        return keys;
    }

    /** Keys touched again after an eviction had forgotten every transaction that touched them. */
    Set<Long> restartedKeys() {
        return restarted;
    }

    void settle() {
        inference.settle();
    }

    /** Transactions held now. */
    int size() {
        return invocations.size();
    }

    ListAppendInference inference() {
        return inference;
    }

    Set<Edge> edges() {
        return edges;
    }

    List<Finding> findings() {
        return findings;
    }

    /** Garbage reads counted rather than reported, once evicted. */
    int unverifiable() {
        return unverifiable;
    }

    /** The history indices of the completions skipped because their transaction was forgotten while pending. */
    Set<Long> skipped() {
        return skipped;
    }

    // ---- the context ----

    private byte status(int id) {
        Op c = completions.get(id);
        return c == null ? TxnTable.PENDING : TxnTable.statusOf(c.type());
    }

    @Override
    public boolean pending(int t) {
        return status(t) == TxnTable.PENDING;
    }

    @Override
    public boolean possible(int t) {
        byte s = status(t);
        return s == TxnTable.OK || s == TxnTable.INFO;
    }

    @Override
    public boolean committed(int t) {
        return status(t) == TxnTable.OK;
    }

    @Override
    public boolean failed(int t) {
        return status(t) == TxnTable.FAIL;
    }

    @Override
    public void link(int from, int to, EdgeKind kind) {
        requireHeld(from);
        requireHeld(to);
        if (!possible(from) || !possible(to)) {
            throw new AssertionError(kind + " edge from " + from + " to " + to + " joins a transaction that is not"
                    + " ok or info: an id left stale by an eviction?");
        }
        edges.add(new Edge(invokeIndex(from), invokeIndex(to), kind));
    }

    private void requireHeld(int id) {
        if (id < 0 || id >= invocations.size()) {
            throw new AssertionError("transaction " + id + " is not held (0.." + (invocations.size() - 1) + ")");
        }
    }

    @Override
    public void reportJudgedAtCompletion(Finding finding) {
        report(finding);
    }

    @Override
    public void report(Finding finding) {
        if (truncated && finding.type() == AnomalyType.GARBAGE_READ) {
            unverifiable++;
            return;
        }
        findings.add(finding);
    }

    /** Records what streams: which findings a verdict leaves out is the checker's concern. */
    @Override
    public void leaveDirtyUpdatesOutOfVerdict(long key) {
    }

    @Override
    public Txn txn(int id) {
        requireHeld(id);
        Op inv = invocations.get(id);
        Op shown = id == currentTxn ? current : completions.get(id);
        if (shown == null) {
            return new Txn(id, inv.index(), inv.time(), inv);
        }
        Op decoded = new Op(shown.index(), shown.time(), shown.type(), shown.process(), microOps(id));
        return new Txn(id, inv.index(), inv.time(), decoded);
    }

    /**
     * A transaction's micro-ops, each read stored as a prefix decoded from its key's order as
     * the checker's table decodes it, and checked against what was read.
     */
    @Override
    public List<MicroOp> microOps(int id) {
        requireHeld(id);
        if (id == currentTxn) {
            return current.value();
        }
        Op c = completions.get(id);
        if (c == null) {
            return invocations.get(id).value();
        }
        List<MicroOp> out = new ArrayList<>(c.value());
        boolean[] prefix = prefixReads.get(id);
        for (int i = 0; i < out.size(); i++) {
            if (prefix[i] && out.get(i) instanceof MicroOp.Read r) {
                long[] decoded = inference.prefix(r.key(), r.length());
                if (!Arrays.equals(decoded, r.values())) {
                    throw new AssertionError("transaction " + id + "'s read of key " + r.key() + " was "
                            + Arrays.toString(r.values()) + " but decodes as " + Arrays.toString(decoded));
                }
                out.set(i, new MicroOp.Read(r.key(), decoded));
            }
        }
        return out;
    }

    @Override
    public long invokeIndex(int id) {
        requireHeld(id);
        return invocations.get(id).index();
    }

    @Override
    public String render(long atom) {
        return Long.toString(atom);
    }

    /** Every read stored as a prefix, decoded and checked ({@link #microOps}). */
    void decodeEveryRead() {
        for (int id = 0; id < invocations.size(); id++) {
            microOps(id);
        }
    }
}
