package io.isowatch.trace;

import io.isowatch.collect.IntList;
import io.isowatch.collect.LongIntMap;
import io.isowatch.graph.EdgeKind;

import java.util.ArrayList;
import java.util.List;

/**
 * The version trace of one read-write register, as Elle's rw-register checker infers it.
 *
 * <p>Registers reveal little: a read names the one write it saw (a wr edge, if that write was
 * its writer's last to the key), and the order of versions must come from assumptions. The
 * initial nil state precedes every version, always, and its rw edges (from readers of nil to
 * every committed writer) are inferred as transactions arrive. The other sources (writes follow
 * reads, per-process order, realtime order) are tried whole when the history settles
 * ({@link #tryVersionEdge}); a source that makes any key's versions cyclic is dropped, as Elle
 * drops it, and each edge {@code v1 -> v2} of the sources that stay yields ww from v1's writer to
 * v2's and rw from every reader of v1 to v2's writer ({@link #infer}).
 *
 * <p>As in Elle, only committed transactions take part in ww, wr and rw edges, and only a
 * transaction's external values count: its first read of the key before writing it, and its
 * last write. Every edge is final when made. Costs: O(1) per read and write plus O(degree) per
 * version edge; a cycle check costs the size of the key's version graph, which is small because
 * keys are retired. Not thread-safe.
 */
public final class RegisterTrace {

    private static final int NIL = 0;

    private final long key;
    private final LongIntMap nodeOf = new LongIntMap();
    private final List<Version> versions = new ArrayList<>();
    /** Committed transactions whose last write of this key is some version: nil precedes them all. */
    private final IntList finalWriters = new IntList();

    /** One version: who wrote it, who read it, and what it is ordered against. */
    private static final class Version {
        final long value;
        int writer = -1;
        boolean intermediate;
        boolean writerFinal;
        IntList readers;
        /** Readers whose read of this value was not their first of the key (checked, never ordered). */
        IntList laterReaders;
        IntList successors;
        IntList predecessors;
        int mark;

        Version(long value) {
            this.value = value;
        }
    }

    private int markEpoch;

    public RegisterTrace(long key) {
        this.key = key;
        versions.add(new Version(TraceListener.NIL));
    }

    public long key() {
        return key;
    }

    private int node(long value) {
        int n = nodeOf.get(value);
        if (n == LongIntMap.MISSING) {
            n = versions.size();
            versions.add(new Version(value));
            nodeOf.put(value, n);
        }
        return n;
    }

    /**
     * Claims {@code value} for {@code txn} at its invocation. {@code intermediate} when the same
     * transaction writes the key again later. Returns the transaction that already claimed the
     * value, or {@link LongIntMap#MISSING}.
     */
    public int claim(long value, int txn, boolean intermediate, TraceListener out) {
        Version v = versions.get(node(value));
        if (v.writer >= 0) {
            return v.writer;
        }
        v.writer = txn;
        v.intermediate = intermediate;
        if (intermediate) {
            // Committed reads that saw this value before its invocation arrived read an
            // intermediate state.
            for (IntList list : new IntList[] {v.readers, v.laterReaders}) {
                for (int i = 0; list != null && i < list.size(); i++) {
                    if (list.get(i) != txn) {
                        out.intermediateRead(list.get(i), key, value, txn);
                    }
                }
            }
        }
        return LongIntMap.MISSING;
    }

    /** The transaction that wrote {@code value}, or {@link LongIntMap#MISSING}. */
    public int writerOf(long value) {
        int n = nodeOf.get(value);
        return n == LongIntMap.MISSING || versions.get(n).writer < 0 ? LongIntMap.MISSING : versions.get(n).writer;
    }

    /**
     * {@code txn} committed with {@code value} as its last write of this key: wr edges to the
     * readers already seen, and ww and rw along the version graph, starting with nil's readers.
     */
    public void committedWrite(int txn, long value, TxnStatus status, TraceListener out) {
        Version v = versions.get(node(value));
        v.writerFinal = true;
        finalWriters.add(txn);
        if (v.readers != null) {
            for (int i = 0; i < v.readers.size(); i++) {
                out.edge(txn, v.readers.get(i), EdgeKind.WR);
            }
        }
        antiDependOnNil(txn, out);
        if (v.predecessors != null) {
            for (int i = 0; i < v.predecessors.size(); i++) {
                Version before = versions.get(v.predecessors.get(i));
                if (before.writerFinal && status.committed(before.writer)) {
                    out.edge(before.writer, txn, EdgeKind.WW);
                }
                readersPrecede(before, txn, out);
            }
        }
        if (v.successors != null) {
            for (int i = 0; i < v.successors.size(); i++) {
                Version after = versions.get(v.successors.get(i));
                if (after.writerFinal && status.committed(after.writer)) {
                    out.edge(txn, after.writer, EdgeKind.WW);
                }
            }
        }
    }

    private void antiDependOnNil(int writer, TraceListener out) {
        IntList nilReaders = versions.get(NIL).readers;
        if (nilReaders != null) {
            for (int i = 0; i < nilReaders.size(); i++) {
                out.edge(nilReaders.get(i), writer, EdgeKind.RW);
            }
        }
    }

    private static void readersPrecede(Version before, int writer, TraceListener out) {
        if (before.readers != null) {
            for (int i = 0; i < before.readers.size(); i++) {
                out.edge(before.readers.get(i), writer, EdgeKind.RW);
            }
        }
    }

    /** The writer of {@code value} aborted: every committed read of it so far is an aborted read. */
    public void abortedWrite(int txn, long value, TraceListener out) {
        Version v = versions.get(node(value));
        int reader = firstReader(v);
        if (reader >= 0 && reader != txn) {
            out.abortedRead(reader, key, value, txn);
        }
    }

    private static int firstReader(Version v) {
        if (v.readers != null && v.readers.size() > 0) {
            return v.readers.get(0);
        }
        return v.laterReaders != null && v.laterReaders.size() > 0 ? v.laterReaders.get(0) : -1;
    }

    /**
     * A committed transaction's external read: {@code nil} for the initial state, else the value
     * read. Reports G1a and G1b where they apply, adds the wr edge, and rw edges to the writers
     * of every version known to follow the one read.
     */
    public void committedRead(int reader, boolean nil, long value, TxnStatus status, TraceListener out) {
        if (nil) {
            Version initial = versions.get(NIL);
            add(initial, reader);
            for (int i = 0; i < finalWriters.size(); i++) {
                out.edge(reader, finalWriters.get(i), EdgeKind.RW);
            }
            return;
        }
        Version v = versions.get(node(value));
        add(v, reader);
        badRead(v, reader, status, out);
        if (v.writer >= 0 && v.writer != reader && !v.intermediate && v.writerFinal && status.committed(v.writer)) {
            out.edge(v.writer, reader, EdgeKind.WR);
        }
        if (v.successors != null) {
            for (int i = 0; i < v.successors.size(); i++) {
                Version after = versions.get(v.successors.get(i));
                if (after.writerFinal && status.committed(after.writer)) {
                    out.edge(reader, after.writer, EdgeKind.RW);
                }
            }
        }
    }

    /**
     * A committed transaction read {@code value} again, after its first read or its own write of
     * the key. Elle's G1a and G1b look at every read, so this one is judged too (now, and when a
     * pending writer aborts), though it orders nothing.
     */
    public void committedLaterRead(int reader, long value, TxnStatus status, TraceListener out) {
        Version v = versions.get(node(value));
        if (v.laterReaders == null) {
            v.laterReaders = new IntList(2);
        }
        v.laterReaders.add(reader);
        badRead(v, reader, status, out);
    }

    /** G1a (its writer aborted) and G1b (an intermediate write): Elle checks them independently. */
    private void badRead(Version v, int reader, TxnStatus status, TraceListener out) {
        if (v.writer < 0 || v.writer == reader) {
            return;
        }
        if (status.failed(v.writer)) {
            out.abortedRead(reader, key, v.value, v.writer);
        }
        if (v.intermediate) {
            out.intermediateRead(reader, key, v.value, v.writer);
        }
    }

    private static void add(Version v, int reader) {
        if (v.readers == null) {
            v.readers = new IntList(2);
        }
        v.readers.add(reader);
    }

    /**
     * Tentatively adds the version-order inference {@code before < after} (nil is
     * {@code beforeNil}/{@code afterNil}) without inferring anything from it yet. Returns the
     * versions round the cycle it closes (the initial nil as {@link TraceListener#NIL}), an empty
     * array when it was added without closing one, or null when it is trivial or already known.
     * A source's inferences are all tried before any is used, because Elle drops a source whole
     * when it makes any key's versions cyclic: see {@link #retract} and {@link #infer}.
     */
    public long[] tryVersionEdge(boolean beforeNil, long before, boolean afterNil, long after) {
        if (beforeNil || (!afterNil && before == after)) {
            return null; // nil already precedes every version
        }
        int from = node(before);
        if (afterNil) {
            return new long[] {TraceListener.NIL, before};
        }
        int to = node(after);
        Version a = versions.get(from);
        if (a.successors != null && a.successors.contains(to)) {
            return null;
        }
        int[] path = pathBetween(to, from);
        Version b = versions.get(to);
        if (a.successors == null) {
            a.successors = new IntList(2);
        }
        a.successors.add(to);
        if (b.predecessors == null) {
            b.predecessors = new IntList(2);
        }
        b.predecessors.add(from);
        if (path == null) {
            return new long[0];
        }
        long[] cycle = new long[path.length];
        for (int i = 0; i < path.length; i++) {
            cycle[i] = versions.get(path[i]).value;
        }
        return cycle;
    }

    /** Takes back an edge {@link #tryVersionEdge} added (its source was dropped). */
    public void retract(long before, long after) {
        int from = nodeOf.get(before);
        int to = nodeOf.get(after);
        removeLast(versions.get(from).successors, to);
        removeLast(versions.get(to).predecessors, from);
    }

    private static void removeLast(IntList list, int value) {
        for (int i = list.size() - 1; i >= 0; i--) {
            if (list.get(i) == value) {
                for (int k = i; k < list.size() - 1; k++) {
                    list.set(k, list.get(k + 1));
                }
                list.swapRemove(list.size() - 1);
                return;
            }
        }
    }

    /**
     * Infers the transaction edges of a version edge that stays: ww from the writer of
     * {@code before} to the writer of {@code after}, rw from every reader of {@code before}.
     * Only committed final writes take part.
     */
    public void infer(long before, long after, TxnStatus status, TraceListener out) {
        Version a = versions.get(nodeOf.get(before));
        Version b = versions.get(nodeOf.get(after));
        if (b.writerFinal && status.committed(b.writer)) {
            if (a.writerFinal && status.committed(a.writer)) {
                out.edge(a.writer, b.writer, EdgeKind.WW);
            }
            readersPrecede(a, b.writer, out);
        }
    }

    /** A path of versions from {@code start} to {@code goal} (both included), or null. */
    private int[] pathBetween(int start, int goal) {
        int epoch = ++markEpoch;
        IntList stack = new IntList();
        IntList parent = new IntList();
        IntList order = new IntList();
        stack.add(start);
        versions.get(start).mark = epoch;
        order.add(start);
        parent.add(-1);
        int head = 0;
        while (head < order.size()) {
            int n = order.get(head);
            if (n == goal) {
                IntList rev = new IntList();
                for (int i = head; i >= 0; i = parent.get(i)) {
                    rev.add(order.get(i));
                }
                int[] path = new int[rev.size()];
                for (int i = 0; i < path.length; i++) {
                    path[i] = rev.get(rev.size() - 1 - i);
                }
                return path;
            }
            IntList next = versions.get(n).successors;
            if (next != null) {
                for (int i = 0; i < next.size(); i++) {
                    int m = next.get(i);
                    if (versions.get(m).mark != epoch) {
                        versions.get(m).mark = epoch;
                        order.add(m);
                        parent.add(head);
                    }
                }
            }
            head++;
        }
        return null;
    }

    /** True when the version graph has the edge {@code before -> after} (nil precedes all). */
    public boolean precedes(boolean beforeNil, long before, long after) {
        int to = nodeOf.get(after);
        if (to == LongIntMap.MISSING) {
            return false;
        }
        if (beforeNil) {
            return true;
        }
        int from = nodeOf.get(before);
        return from != LongIntMap.MISSING && versions.get(from).successors != null
                && versions.get(from).successors.contains(to);
    }

    /**
     * No further event will come: report values read that nobody wrote (garbage reads; until
     * now a later invocation could still have written them).
     */
    public void settle(TraceListener out) {
        for (int n = 1; n < versions.size(); n++) {
            Version v = versions.get(n);
            int reader = firstReader(v);
            if (v.writer < 0 && reader >= 0) {
                out.garbageRead(reader, key, v.value);
            }
        }
    }
}
