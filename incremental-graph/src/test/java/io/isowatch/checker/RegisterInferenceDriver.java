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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Drives a {@link RegisterInference} alone, event by event, as {@link IncrementalChecker} does:
 * dense ids given at invocation, the outcome known before the inference hears of a completion,
 * and, once transactions were evicted, their completions skipped and garbage reads only counted
 * (the checker's {@code historyTruncated} semantics). What the inference reports is recorded with
 * transactions named by invocation index, so that a run that evicts compares with one that does
 * not. Every id the inference passes back is checked to be valid after the evictions so far.
 */
final class RegisterInferenceDriver implements InferenceContext {

    /** A dependency edge between two transactions, each named by the index of its invocation. */
    record Edge(long from, long to, EdgeKind kind) {
        @Override
        public String toString() {
            return from + " " + kind.elleName() + " " + to;
        }
    }

    private final RegisterInference inference;
    /** Per transaction in order of invocation (its id before any eviction): invocation and completion. */
    private final List<Op> invocations = new ArrayList<>();
    private final List<Op> completions = new ArrayList<>();
    private final Map<Long, Integer> open = new HashMap<>();
    /** How many transactions were evicted: the id of local transaction 0 before any eviction. */
    private int evicted;
    private boolean settling;

    final Set<Edge> edges = new LinkedHashSet<>();
    /** Edges reported before the history settled: the initial-state and wr inferences. */
    final Set<Edge> onlineEdges = new LinkedHashSet<>();
    final List<Finding> findings = new ArrayList<>();
    final List<Finding> lostUpdates = new ArrayList<>();
    /** Garbage reads after an eviction, counted as the truncated checker counts them: (key, value). */
    final List<long[]> unverifiableReads = new ArrayList<>();

    RegisterInferenceDriver(RegisterOptions options) {
        this.inference = new RegisterInference(this, options);
    }

    RegisterInference inference() {
        return inference;
    }

    /** Takes the next event, in index order. */
    void accept(Op op) {
        if (op.type() == OpType.INVOKE) {
            int id = invocations.size();
            invocations.add(op);
            completions.add(null);
            open.put(op.process(), id);
            inference.invoked(id - evicted, op, true);
            return;
        }
        Integer id = open.remove(op.process());
        if (id == null || id < evicted) {
            return; // invoked before an eviction, and forgotten with it: the checker skips it
        }
        completions.set(id, op);
        inference.completed(id - evicted, op, TxnTable.statusOf(op.type()));
    }

    /** Evicts the {@code cut} oldest retained transactions. */
    void evictBelow(int cut) {
        inference.evictBelow(cut);
        evicted += cut;
    }

    /** Transactions retained: valid ids are 0 up to this, exclusive. */
    int retained() {
        return invocations.size() - evicted;
    }

    int evicted() {
        return evicted;
    }

    void finish() {
        settling = true;
        inference.settle();
        lostUpdates.addAll(inference.lostUpdates());
    }

    /** The index of the invocation of transaction {@code id} as numbered before any eviction. */
    long invokeIndexOfOriginal(int id) {
        return invocations.get(id).index();
    }

    /**
     * Keys a retained transaction could make the inference hold: those its invocation writes, and
     * those its ok completion reads or writes.
     */
    Set<Long> keysOfRetained() {
        Set<Long> keys = new HashSet<>();
        for (int id = evicted; id < invocations.size(); id++) {
            invocations.get(id).value().forEach(m -> keys.add(m.key()));
            Op done = completions.get(id);
            if (done != null && done.type() == OpType.OK) {
                done.value().forEach(m -> keys.add(m.key()));
            }
        }
        return keys;
    }

    /** The invocation indices of the retained transactions. */
    Set<Long> retainedInvocations() {
        Set<Long> out = new HashSet<>();
        for (int id = evicted; id < invocations.size(); id++) {
            out.add(invocations.get(id).index());
        }
        return out;
    }

    /** The transaction, numbered as before any eviction, that invoked a write of {@code value} to {@code key}, or -1. */
    int writerOf(long key, long value) {
        for (int id = 0; id < invocations.size(); id++) {
            for (MicroOp m : invocations.get(id).value()) {
                if (m instanceof MicroOp.Write w && w.key() == key && w.value() == value) {
                    return id;
                }
            }
        }
        return -1;
    }

    private int original(int id) {
        if (id < 0 || id >= retained()) {
            throw new AssertionError("the inference named transaction " + id + ", but after evicting " + evicted
                    + " of " + invocations.size() + " the valid ids are 0.." + (retained() - 1));
        }
        return id + evicted;
    }

    /**
     * A finding as text that names transactions by invocation index, so runs that number them
     * differently compare.
     */
    static String describe(Finding f) {
        List<Long> txns = f.txns().stream().map(Txn::invokeIndex).toList();
        String detail;
        if (f instanceof Finding.BadRead b) {
            detail = "mop " + b.mopIndex() + " element " + b.element();
        } else if (f instanceof Finding.Internal i) {
            detail = "mop " + i.mopIndex() + " expected " + Arrays.toString(i.expected());
        } else if (f instanceof Finding.CyclicVersions c) {
            detail = "key " + c.key() + " cycle " + Arrays.toString(c.cycle()) + " " + c.source();
        } else if (f instanceof Finding.LostUpdate l) {
            detail = "key " + l.key() + " value " + Arrays.toString(l.value());
        } else {
            throw new AssertionError("a register inference reported " + f);
        }
        return f.type().elleName() + " " + txns + " " + detail;
    }

    // ---- the context ----

    @Override
    public void link(int from, int to, EdgeKind kind) {
        Edge e = new Edge(invokeIndexOfOriginal(original(from)), invokeIndexOfOriginal(original(to)), kind);
        edges.add(e);
        if (!settling) {
            onlineEdges.add(e);
        }
    }

    @Override
    public void reportJudgedAtCompletion(Finding finding) {
        report(finding);
    }

    @Override
    public void report(Finding finding) {
        finding.txns().forEach(t -> original(t.id()));
        if (evicted > 0 && finding instanceof Finding.BadRead b && b.type() == AnomalyType.GARBAGE_READ) {
            MicroOp read = b.reader().completion().value().get(b.mopIndex());
            unverifiableReads.add(new long[] {read.key(), b.element()});
            return;
        }
        findings.add(finding);
    }

    @Override
    public void leaveDirtyUpdatesOutOfVerdict(long key) {
        throw new AssertionError("a register inference walks no list for dirty updates");
    }

    @Override
    public Txn txn(int id) {
        int t = original(id);
        Op invocation = invocations.get(t);
        Op done = completions.get(t);
        return new Txn(id, invocation.index(), invocation.time(), done == null ? invocation : done);
    }

    @Override
    public List<MicroOp> microOps(int id) {
        int t = original(id);
        return completions.get(t) == null ? invocations.get(t).value() : completions.get(t).value();
    }

    @Override
    public long invokeIndex(int id) {
        return invocations.get(original(id)).index();
    }

    @Override
    public String render(long atom) {
        return Long.toString(atom);
    }

    private byte status(int id) {
        Op done = completions.get(original(id));
        return done == null ? TxnTable.PENDING : TxnTable.statusOf(done.type());
    }

    @Override
    public boolean pending(int txn) {
        return status(txn) == TxnTable.PENDING;
    }

    @Override
    public boolean possible(int txn) {
        byte s = status(txn);
        return s == TxnTable.OK || s == TxnTable.INFO;
    }

    @Override
    public boolean committed(int txn) {
        return status(txn) == TxnTable.OK;
    }

    @Override
    public boolean failed(int txn) {
        return status(txn) == TxnTable.FAIL;
    }
}
