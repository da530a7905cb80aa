package io.isowatch.trace;

import io.isowatch.collect.IntList;
import io.isowatch.collect.IntListPool;
import io.isowatch.collect.LongIntMap;
import io.isowatch.graph.EdgeKind;

import java.util.Arrays;

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
 *
 * <p>Versions are numbered from 0 (nil) in order of first mention and stored as columns, one
 * primitive array per field indexed by version, with the four per-version lists of readers and
 * neighbours in one {@link IntListPool}: a history of a million transactions has over a million
 * versions, and an object per version and per list cost more than the data they held. The
 * version graph's columns (successors, predecessors, search marks) are made with the trace's
 * first version edge: only the optional sources of version order make any.
 *
 * <p>{@link #evictBelow} forgets a prefix of the transactions, keeping only the rows and list
 * entries of retained ones, so a trace holds what its key's retained transactions need.
 */
public final class RegisterTrace {

    private static final int NIL = 0;
    private static final int FIRST_CAPACITY = 4;
    private static final byte INTERMEDIATE = 1;
    private static final byte WRITER_FINAL = 2;
    /** The version's first reader was forgotten by {@link #evictBelow}: findings that name its first reader are lost. */
    private static final byte FIRST_READER_FORGOTTEN = 4;
    /** The version was judged garbage at its first reader's completion ({@link ReadSettling}); settling skips it. */
    private static final byte GARBAGE_JUDGED = 8;

    private final long key;
    private final ReadSettling settling;
    /** False once an eviction forgot a version's writer: a later read of that value must not be judged at completion. */
    private boolean knowsEveryClaim;
    private LongIntMap nodeOf = new LongIntMap();
    /** Committed transactions whose last write of this key is some version: nil precedes them all. */
    private IntList finalWriters = new IntList();
    private IntListPool lists = new IntListPool();

    private int versions;
    private long[] values = new long[FIRST_CAPACITY];
    /** The transaction that claimed each version, or -1. */
    private int[] writers = new int[FIRST_CAPACITY];
    /** {@link #INTERMEDIATE}, {@link #WRITER_FINAL} and {@link #FIRST_READER_FORGOTTEN} bits per version. */
    private byte[] flags = new byte[FIRST_CAPACITY];
    /** Heads in {@link #lists}: readers of each version whose read was their first of the key. */
    private int[] readers = new int[FIRST_CAPACITY];
    /** Heads of readers whose read of the version was not their first of the key (checked, never ordered). */
    private int[] laterReaders = new int[FIRST_CAPACITY];
    /** Heads of each version's neighbours in the version graph; null until its first edge. */
    private int[] successors;
    private int[] predecessors;
    /** The {@link #markEpoch} of the last path search that reached each version; null with {@link #successors}. */
    private int[] marks;

    private int markEpoch;

    /** A trace whose garbage reads wait for the end of the history. */
    public RegisterTrace(long key) {
        this(key, ReadSettling.atTheEnd());
    }

    /** A trace whose garbage reads are judged as {@code settling} says. */
    public RegisterTrace(long key, ReadSettling settling) {
        this.key = key;
        this.settling = settling;
        this.knowsEveryClaim = settling.knowsEveryClaimOf(key);
        addVersion(TraceListener.NIL);
    }

    public long key() {
        return key;
    }

    private int node(long value) {
        int n = nodeOf.get(value);
        if (n == LongIntMap.MISSING) {
            n = addVersion(value);
            nodeOf.put(value, n);
        }
        return n;
    }

    private int addVersion(long value) {
        if (versions == values.length) {
            grow(versions + (versions >> 1));
        }
        int n = versions++;
        values[n] = value;
        writers[n] = -1;
        return n;
    }

    /**
     * Grows every column to {@code capacity}. Callers grow by half rather than doubling: the
     * columns of all traces together hold a row per version, and the smaller step leaves less
     * of them unused.
     */
    private void grow(int capacity) {
        values = Arrays.copyOf(values, capacity);
        writers = Arrays.copyOf(writers, capacity);
        flags = Arrays.copyOf(flags, capacity);
        readers = Arrays.copyOf(readers, capacity);
        laterReaders = Arrays.copyOf(laterReaders, capacity);
        if (successors != null) {
            successors = Arrays.copyOf(successors, capacity);
            predecessors = Arrays.copyOf(predecessors, capacity);
            marks = Arrays.copyOf(marks, capacity);
        }
    }

    private int successorsOf(int n) {
        return successors == null ? IntListPool.EMPTY : successors[n];
    }

    private int predecessorsOf(int n) {
        return predecessors == null ? IntListPool.EMPTY : predecessors[n];
    }

    private boolean is(int n, byte flag) {
        return (flags[n] & flag) != 0;
    }

    /**
     * Claims {@code value} for {@code txn} at its invocation. {@code intermediate} when the same
     * transaction writes the key again later. Returns the transaction that already claimed the
     * value, or {@link LongIntMap#MISSING}.
     */
    public int claim(long value, int txn, boolean intermediate, TraceListener out) {
        int v = node(value);
        if (writers[v] >= 0) {
            return writers[v];
        }
        writers[v] = txn;
        if (intermediate) {
            flags[v] |= INTERMEDIATE;
            // Committed reads that saw this value before its invocation arrived read an
            // intermediate state.
            for (int list : new int[] {readers[v], laterReaders[v]}) {
                for (int i = 0; i < lists.size(list); i++) {
                    if (lists.get(list, i) != txn) {
                        out.intermediateRead(lists.get(list, i), key, value, txn);
                    }
                }
            }
        }
        return LongIntMap.MISSING;
    }

    /** The transaction that wrote {@code value}, or {@link LongIntMap#MISSING}. */
    public int writerOf(long value) {
        int n = nodeOf.get(value);
        return n == LongIntMap.MISSING || writers[n] < 0 ? LongIntMap.MISSING : writers[n];
    }

    /**
     * {@code txn} committed with {@code value} as its last write of this key: wr edges to the
     * readers already seen, and ww and rw along the version graph, starting with nil's readers.
     */
    public void committedWrite(int txn, long value, TxnStatus status, TraceListener out) {
        int v = node(value);
        flags[v] |= WRITER_FINAL;
        finalWriters.add(txn);
        int read = readers[v];
        for (int i = 0; i < lists.size(read); i++) {
            out.edge(txn, lists.get(read, i), EdgeKind.WR);
        }
        readersPrecede(NIL, txn, out);
        int before = predecessorsOf(v);
        for (int i = 0; i < lists.size(before); i++) {
            int b = lists.get(before, i);
            if (committedFinal(b, status)) {
                out.edge(writers[b], txn, EdgeKind.WW);
            }
            readersPrecede(b, txn, out);
        }
        int after = successorsOf(v);
        for (int i = 0; i < lists.size(after); i++) {
            int a = lists.get(after, i);
            if (committedFinal(a, status)) {
                out.edge(txn, writers[a], EdgeKind.WW);
            }
        }
    }

    /** Whether version {@code n} is the final write of a committed transaction. */
    private boolean committedFinal(int n, TxnStatus status) {
        return is(n, WRITER_FINAL) && status.committed(writers[n]);
    }

    private void readersPrecede(int before, int writer, TraceListener out) {
        int read = readers[before];
        for (int i = 0; i < lists.size(read); i++) {
            out.edge(lists.get(read, i), writer, EdgeKind.RW);
        }
    }

    /** The writer of {@code value} aborted: every committed read of it so far is an aborted read. */
    public void abortedWrite(int txn, long value, TraceListener out) {
        int reader = namedReader(node(value));
        if (reader >= 0 && reader != txn) {
            out.abortedRead(reader, key, value, txn);
        }
    }

    /**
     * The reader that a finding about version {@code v} names: its first, as in a history seen
     * whole, or -1 when that one was forgotten (naming a later reader would be a finding the
     * whole history does not report).
     */
    private int namedReader(int v) {
        return is(v, FIRST_READER_FORGOTTEN) ? -1 : firstReader(v);
    }

    private int firstReader(int v) {
        if (lists.size(readers[v]) > 0) {
            return lists.get(readers[v], 0);
        }
        return lists.size(laterReaders[v]) > 0 ? lists.get(laterReaders[v], 0) : -1;
    }

    /**
     * A committed transaction's external read: {@code nil} for the initial state, else the value
     * read. Reports G1a and G1b where they apply, adds the wr edge, and rw edges to the writers
     * of every version known to follow the one read.
     */
    public void committedRead(int reader, boolean nil, long value, TxnStatus status, TraceListener out) {
        if (nil) {
            readers[NIL] = lists.add(readers[NIL], reader);
            for (int i = 0; i < finalWriters.size(); i++) {
                out.edge(reader, finalWriters.get(i), EdgeKind.RW);
            }
            return;
        }
        int v = node(value);
        judgeAtCompletion(v, reader, out);
        readers[v] = lists.add(readers[v], reader);
        badRead(v, reader, status, out);
        int writer = writers[v];
        if (writer >= 0 && writer != reader && !is(v, INTERMEDIATE) && committedFinal(v, status)) {
            out.edge(writer, reader, EdgeKind.WR);
        }
        int after = successorsOf(v);
        for (int i = 0; i < lists.size(after); i++) {
            int a = lists.get(after, i);
            if (committedFinal(a, status)) {
                out.edge(reader, writers[a], EdgeKind.RW);
            }
        }
    }

    /**
     * A committed transaction read {@code value} again, after its first read or its own write of
     * the key. Elle's G1a and G1b look at every read, so this one is judged too (now, and when a
     * pending writer aborts), though it orders nothing.
     */
    public void committedLaterRead(int reader, long value, TxnStatus status, TraceListener out) {
        int v = node(value);
        judgeAtCompletion(v, reader, out);
        laterReaders[v] = lists.add(laterReaders[v], reader);
        badRead(v, reader, status, out);
    }

    /**
     * Under the agent protocol, with every claim on this key known: a value whose first reader
     * this is, and which no invocation so far writes, was written by nobody; reported now rather
     * than when the history settles ({@link ReadSettling}).
     */
    private void judgeAtCompletion(int v, int reader, TraceListener out) {
        if (knowsEveryClaim && settling.live() && writers[v] < 0 && firstReader(v) < 0
                && !is(v, FIRST_READER_FORGOTTEN)) {
            flags[v] |= GARBAGE_JUDGED;
            out.garbageReadAtCompletion(reader, key, values[v]);
        }
    }

    /** G1a (its writer aborted) and G1b (an intermediate write): Elle checks them independently. */
    private void badRead(int v, int reader, TxnStatus status, TraceListener out) {
        int writer = writers[v];
        if (writer < 0 || writer == reader) {
            return;
        }
        if (status.failed(writer)) {
            out.abortedRead(reader, key, values[v], writer);
        }
        if (is(v, INTERMEDIATE)) {
            out.intermediateRead(reader, key, values[v], writer);
        }
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
        if (lists.contains(successorsOf(from), to)) {
            return null;
        }
        if (successors == null) {
            successors = new int[values.length];
            predecessors = new int[values.length];
            marks = new int[values.length];
        }
        int[] path = pathBetween(to, from);
        successors[from] = lists.add(successors[from], to);
        predecessors[to] = lists.add(predecessors[to], from);
        if (path == null) {
            return new long[0];
        }
        long[] cycle = new long[path.length];
        for (int i = 0; i < path.length; i++) {
            cycle[i] = values[path[i]];
        }
        return cycle;
    }

    /** Takes back an edge {@link #tryVersionEdge} added (its source was dropped). */
    public void retract(long before, long after) {
        int from = nodeOf.get(before);
        int to = nodeOf.get(after);
        successors[from] = lists.removeLast(successors[from], to);
        predecessors[to] = lists.removeLast(predecessors[to], from);
    }

    /**
     * Infers the transaction edges of a version edge that stays: ww from the writer of
     * {@code before} to the writer of {@code after}, rw from every reader of {@code before}.
     * Only committed final writes take part.
     */
    public void infer(long before, long after, TxnStatus status, TraceListener out) {
        int a = nodeOf.get(before);
        int b = nodeOf.get(after);
        if (committedFinal(b, status)) {
            if (committedFinal(a, status)) {
                out.edge(writers[a], writers[b], EdgeKind.WW);
            }
            readersPrecede(a, writers[b], out);
        }
    }

    /** A path of versions from {@code start} to {@code goal} (both included), or null. */
    private int[] pathBetween(int start, int goal) {
        int epoch = ++markEpoch;
        IntList parent = new IntList();
        IntList order = new IntList();
        marks[start] = epoch;
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
            int next = successors[n];
            for (int i = 0; i < lists.size(next); i++) {
                int m = lists.get(next, i);
                if (marks[m] != epoch) {
                    marks[m] = epoch;
                    order.add(m);
                    parent.add(head);
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
        return from != LongIntMap.MISSING && lists.contains(successorsOf(from), to);
    }

    /**
     * Forgets the transactions below {@code cut} and renumbers the rest by {@code -cut} (the
     * eviction contract). A version keeps its row while a retained transaction claimed it or,
     * unclaimed, read it; readers and final writers keep only retained transactions, in their
     * order. A version whose writer is forgotten goes even when retained transactions read it:
     * all the row could still yield (a wr edge to a later reader, its G1a or G1b, a rival write
     * of the value) names that writer, so a later read of the value finds no writer and a later
     * write of it no rival, as in a history cut before the write. A version whose first reader
     * is forgotten no longer names a reader in a finding (see {@link #namedReader}). Returns
     * whether the trace still references a retained transaction; a trace that does not is empty
     * and its owner drops it.
     *
     * <p>Time linear in the trace's size; the columns are rebuilt at the size kept, so what the
     * forgotten transactions held becomes garbage. Only before settling: the version graph of
     * the assumed sources is built when the history settles, and is never evicted.
     */
    public boolean evictBelow(int cut) {
        if (successors != null) {
            throw new IllegalStateException("evictBelow(" + cut + ") on the trace of key " + key
                    + " after its version graph was built; evict before settling the history");
        }
        int[] row = new int[versions];
        int rows = 0;
        for (int n = 0; n < versions; n++) {
            row[n] = n == NIL || keeps(n, cut) ? rows++ : -1;
            if (row[n] < 0 && writers[n] >= 0) {
                knowsEveryClaim = false; // the value's writer goes with its row: a later read of it would look unwritten
            }
        }
        if (rows == 1 && !retains(lists, readers[NIL], cut) && !retains(finalWriters, cut)) {
            return false;
        }
        rebuild(row, rows, cut);
        return true;
    }

    private boolean keeps(int n, int cut) {
        return writers[n] >= cut || (writers[n] < 0 && (retains(lists, readers[n], cut) || retains(lists, laterReaders[n], cut)));
    }

    private static boolean retains(IntListPool pool, int head, int cut) {
        for (int i = 0; i < pool.size(head); i++) {
            if (pool.get(head, i) >= cut) {
                return true;
            }
        }
        return false;
    }

    private static boolean retains(IntList txns, int cut) {
        for (int i = 0; i < txns.size(); i++) {
            if (txns.get(i) >= cut) {
                return true;
            }
        }
        return false;
    }

    /** Copies the kept rows ({@code row[n]}: the new index of version n, or -1) into new columns. */
    private void rebuild(int[] row, int rows, int cut) {
        int capacity = Math.max(FIRST_CAPACITY, rows);
        long[] newValues = new long[capacity];
        int[] newWriters = new int[capacity];
        byte[] newFlags = new byte[capacity];
        int[] newReaders = new int[capacity];
        int[] newLaterReaders = new int[capacity];
        IntListPool newLists = new IntListPool();
        LongIntMap newNodeOf = new LongIntMap(rows);
        for (int n = 0; n < versions; n++) {
            int m = row[n];
            if (m < 0) {
                continue;
            }
            int first = firstReader(n);
            newValues[m] = values[n];
            newWriters[m] = writers[n] < 0 ? -1 : writers[n] - cut;
            newFlags[m] = (byte) (flags[n] | (first >= 0 && first < cut ? FIRST_READER_FORGOTTEN : 0));
            newReaders[m] = renumbered(readers[n], cut, newLists);
            newLaterReaders[m] = renumbered(laterReaders[n], cut, newLists);
            if (n != NIL) {
                newNodeOf.put(values[n], m);
            }
        }
        IntList newFinalWriters = new IntList();
        for (int i = 0; i < finalWriters.size(); i++) {
            if (finalWriters.get(i) >= cut) {
                newFinalWriters.add(finalWriters.get(i) - cut);
            }
        }
        versions = rows;
        values = newValues;
        writers = newWriters;
        flags = newFlags;
        readers = newReaders;
        laterReaders = newLaterReaders;
        lists = newLists;
        nodeOf = newNodeOf;
        finalWriters = newFinalWriters;
    }

    /** The retained transactions of a list, renumbered, as a list of {@code into}. */
    private int renumbered(int head, int cut, IntListPool into) {
        int out = IntListPool.EMPTY;
        for (int i = 0; i < lists.size(head); i++) {
            int txn = lists.get(head, i);
            if (txn >= cut) {
                out = into.add(out, txn - cut);
            }
        }
        return out;
    }

    /**
     * No further event will come: report values read that nobody wrote (garbage reads; until
     * now a later invocation could still have written them).
     */
    public void settle(TraceListener out) {
        for (int n = 1; n < versions; n++) {
            int reader = namedReader(n);
            if (writers[n] < 0 && reader >= 0 && !is(n, GARBAGE_JUDGED)) {
                out.garbageRead(reader, key, values[n]);
            }
        }
    }
}
