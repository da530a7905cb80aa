package io.isowatch.trace;

import io.isowatch.collect.IntList;
import io.isowatch.collect.IntListPool;
import io.isowatch.collect.LongIntMap;
import io.isowatch.collect.NarrowLongColumn;
import io.isowatch.graph.EdgeKind;

import java.util.HashMap;
import java.util.Map;

/**
 * The version trace of one list-append key: what its reads reveal of the order of appends, and
 * the ww, wr and rw edges that order implies, as Elle infers them.
 *
 * <p>Every read of a key must be a prefix of one list, so the longest read seen so far is the
 * version order, and it only ever grows at its end. That makes each inference final when it is
 * made: a read of {@code [.. e]} depends on {@code e}'s writer (wr) and anti-depends on the
 * writer of the element after {@code e} (rw), consecutive elements' writers are ordered (ww),
 * and none of this changes when longer reads arrive. Edges to a writer whose completion has not
 * arrived wait in a {@link WaiterPool}; writers that abort get no edges. The one inference that
 * needs the key to settle is Elle's placing of appends nobody read after the last observed
 * element: {@link #settle} does it, once no later read can come.
 *
 * <p>A key whose reads contradict each other ({@code incompatible-order}) has no version order.
 * Its trace keeps the order it had and stops extending it; wr edges still follow from the
 * elements read. Elle instead takes the longest read, chosen arbitrarily among contradicting
 * ones; the verdict is invalid either way.
 *
 * <p>Costs: a read of length L costs O(L) for the prefix check plus O(1) per edge; memory is
 * O(appends) per key. Not thread-safe.
 */
public final class ListAppendTrace {

    private static final byte WAIT_WR = 0;
    private static final byte WAIT_RW = 1;

    private final long key;
    private final WaiterPool waiters;
    /** Holds {@code frontier}, shared by all traces: a list of up to one reader costs its head alone. */
    private final IntListPool lists;

    /** The version order; elements are kept as ints while they fit, as histories' elements do. */
    private final NarrowLongColumn order = new NarrowLongColumn(4);
    private int orderSize;
    private final ElementTable elements = new ElementTable();
    /** Elements read outside the version order, with their first reader (keys whose reads disagree). */
    private LongIntMap offOrder;
    /** Readers of the last element, or of the empty list, that the next element anti-depends on. */
    private int frontier = IntListPool.EMPTY;
    /** Every transaction that read this key, so a key whose reads disagree can be redone. */
    private final IntList readers = new IntList(2);
    private int firstDuplicate = Integer.MAX_VALUE;
    private boolean broken;

    private final DirtyUpdateScan dirtyUpdates = new DirtyUpdateScan();

    ListAppendTrace(long key, WaiterPool waiters, IntListPool lists) {
        this.key = key;
        this.waiters = waiters;
        this.lists = lists;
    }

    public long key() {
        return key;
    }

    /**
     * Claims {@code element} for {@code txn} at its invocation. Returns the transaction that
     * already claimed it, or {@link LongIntMap#MISSING}. An intermediate append that earlier reads
     * already ended in is reported as G1b for each of them.
     */
    public int claim(long element, int txn, boolean intermediateAppend, TraceListener out) {
        int previous = writerOf(element);
        if (previous != LongIntMap.MISSING) {
            return previous;
        }
        elements.claim(element, txn, intermediateAppend);
        if (intermediateAppend) {
            // Reads that already ended in this element, before this invocation was seen (a read
            // from the future), read an intermediate state too.
            int head = elements.get(element, ElementTable.WAITING);
            for (int e = head == LongIntMap.MISSING ? WaiterPool.END : head; e != WaiterPool.END; e = waiters.next(e)) {
                if (waiters.kind(e) == WAIT_WR && waiters.txn(e) != txn) {
                    out.intermediateRead(waiters.txn(e), key, element, txn);
                }
            }
        }
        return LongIntMap.MISSING;
    }

    /** The transaction that appended {@code element}, or {@link LongIntMap#MISSING}. */
    public int writerOf(long element) {
        return elements.get(element, ElementTable.WRITER);
    }

    /** The first {@code length} elements of the version order. */
    public long[] prefix(int length) {
        if (length > orderSize) {
            throw new IndexOutOfBoundsException("prefix of " + length + " from a version order of " + orderSize);
        }
        long[] prefix = new long[length];
        for (int i = 0; i < length; i++) {
            prefix[i] = order.get(i);
        }
        return prefix;
    }

    int orderSize() {
        return orderSize;
    }

    long orderAt(int i) {
        return order.get(i);
    }

    /** Where {@code element} first appears in the version order, or {@link LongIntMap#MISSING}. */
    int positionOf(long element) {
        return elements.get(element, ElementTable.POSITION);
    }

    private void append(long element) {
        if (orderSize == order.capacity()) {
            order.grow(orderSize * 2);
        }
        order.set(orderSize++, element);
    }

    /**
     * Takes a read by {@code reader}; returns true when it is a prefix of the version order (so
     * it can be stored as its length). {@code committedReader} enables the checks Elle applies
     * only to committed reads (G1b).
     */
    public boolean read(int reader, long[] values, boolean committedReader, TxnStatus status, TraceListener out) {
        if (readers.isEmpty() || readers.get(readers.size() - 1) != reader) {
            readers.add(reader);
        }
        int length = values.length;
        int common = Math.min(length, orderSize);
        boolean compatible = true;
        for (int i = 0; i < common; i++) {
            if (values[i] != order.get(i)) {
                compatible = false;
                break;
            }
        }
        if (!compatible) {
            if (!broken) {
                broken = true;
                long[] known = prefix(orderSize);
                boolean shorter = length <= known.length;
                out.incompatibleOrder(key, shorter ? values : known, shorter ? known : values);
            }
        } else if (length > orderSize && !broken) {
            extend(values, reader, status, out);
        }
        if (!compatible || length > orderSize) {
            noteOffOrder(reader, values, status, out);
        }
        boolean hasDuplicates = compatible ? length > firstDuplicate : countDuplicates(values) != null;
        if (hasDuplicates) {
            out.duplicateElements(reader, key, countDuplicates(values));
        }
        if (length == 0) {
            if (orderSize > 0) {
                antiDependOn(reader, order.get(0), status, out);
            } else {
                frontier = lists.add(frontier, reader);
            }
            return compatible && length <= orderSize;
        }
        long last = values[length - 1];
        int w = writerOf(last);
        if (committedReader && w != LongIntMap.MISSING && w != reader && elements.intermediate(last)) {
            out.intermediateRead(reader, key, last, w);
        }
        dependOn(reader, last, status, out);
        int p = positionOf(last);
        if (p != LongIntMap.MISSING) {
            int next = successor(p);
            if (next >= 0) {
                antiDependOn(reader, order.get(next), status, out);
            } else {
                frontier = lists.add(frontier, reader);
            }
        }
        return compatible && length <= orderSize;
    }

    /**
     * Elements a read holds outside the version order (the key's reads disagree): G1a does not
     * depend on the order, so they are checked against their writers here, now and when a
     * pending writer aborts; one nobody ever appends is a garbage read when the key settles.
     */
    private void noteOffOrder(int reader, long[] values, TxnStatus status, TraceListener out) {
        for (long e : values) {
            if (positionOf(e) != LongIntMap.MISSING) {
                continue;
            }
            if (offOrder == null) {
                offOrder = new LongIntMap();
            }
            if (offOrder.containsKey(e)) {
                continue;
            }
            offOrder.put(e, reader);
            int w = writerOf(e);
            if (w != LongIntMap.MISSING && status.failed(w)) {
                out.abortedRead(reader, key, e, w);
            }
        }
    }

    private void extend(long[] values, int reader, TxnStatus status, TraceListener out) {
        int oldSize = orderSize;
        int previousDistinct = lastDistinct();
        boolean frontierReleased = false;
        for (int i = oldSize; i < values.length; i++) {
            long e = values[i];
            append(e);
            if (positionOf(e) != LongIntMap.MISSING) {
                firstDuplicate = Math.min(firstDuplicate, i);
                continue;
            }
            elements.set(e, ElementTable.POSITION, i);
            elements.set(e, ElementTable.REVEALER, reader);
            // An element nobody has claimed yet may still be claimed by a later invocation (a
            // read from the future is a realtime anomaly, not garbage): settle() decides.
            int w = writerOf(e);
            if (w != LongIntMap.MISSING && status.failed(w)) {
                out.abortedRead(reader, key, e, w);
            }
            if (!frontierReleased) {
                // Readers of the old last element (or of the empty list) did not see this one.
                for (int f = 0; f < lists.size(frontier); f++) {
                    antiDependOn(lists.get(frontier, f), e, status, out);
                }
                clearFrontier();
                frontierReleased = true;
            }
            if (previousDistinct >= 0) {
                writeDepend(order.get(previousDistinct), e, status, out);
            }
            previousDistinct = i;
        }
        advanceDirtyScan(status, out, false);
    }

    /** Empties the frontier from its end, which gives its blocks back to the pool (O(1) a reader). */
    private void clearFrontier() {
        for (int n = lists.size(frontier); n > 0; n--) {
            frontier = lists.removeLast(frontier, lists.get(frontier, n - 1));
        }
    }

    /** The position of the last element that is not a repeat, or -1. */
    private int lastDistinct() {
        return lastDistinctBefore(orderSize);
    }

    private int lastDistinctBefore(int end) {
        for (int q = end - 1; q >= 0; q--) {
            if (positionOf(order.get(q)) == q) {
                return q;
            }
        }
        return -1;
    }

    /** The position of the next element after position {@code p} that is not a repeat, or -1. */
    private int successor(int p) {
        for (int q = p + 1; q < orderSize; q++) {
            if (positionOf(order.get(q)) == q) {
                return q;
            }
        }
        return -1;
    }

    private int predecessor(int p) {
        for (int q = p - 1; q >= 0; q--) {
            if (positionOf(order.get(q)) == q) {
                return q;
            }
        }
        return -1;
    }

    /** wr: {@code reader} read {@code element} as its last. */
    private void dependOn(int reader, long element, TxnStatus status, TraceListener out) {
        int w = writerOf(element);
        if (w == reader) {
            return;
        }
        if (w == LongIntMap.MISSING || status.pending(w)) {
            waitFor(element, reader, WAIT_WR);
        } else if (status.possible(w)) {
            out.edge(w, reader, EdgeKind.WR);
        }
    }

    /** rw: {@code reader} did not see {@code element}, the one appended right after what it saw. */
    private void antiDependOn(int reader, long element, TxnStatus status, TraceListener out) {
        int w = writerOf(element);
        if (w == reader) {
            return;
        }
        if (w == LongIntMap.MISSING || status.pending(w)) {
            waitFor(element, reader, WAIT_RW);
        } else if (status.possible(w)) {
            out.edge(reader, w, EdgeKind.RW);
        }
    }

    /** ww between the writers of two consecutive elements, once both are known to be possible. */
    private void writeDepend(long before, long after, TxnStatus status, TraceListener out) {
        int a = writerOf(before);
        int b = writerOf(after);
        if (a != LongIntMap.MISSING && b != LongIntMap.MISSING && status.possible(a) && status.possible(b)) {
            out.edge(a, b, EdgeKind.WW);
        }
    }

    private void waitFor(long element, int reader, byte kind) {
        int head = elements.get(element, ElementTable.WAITING);
        elements.set(element, ElementTable.WAITING,
                waiters.push(head == LongIntMap.MISSING ? WaiterPool.END : head, reader, kind));
    }

    /**
     * The writer of {@code element} has completed (ok, info or fail): release what waited for it,
     * add the ww edges to its neighbours in the order, and report reads of it if it aborted.
     */
    public void writerCompleted(int txn, long element, TxnStatus status, TraceListener out) {
        boolean possible = status.possible(txn);
        int head = elements.get(element, ElementTable.WAITING);
        if (head != LongIntMap.MISSING) {
            elements.set(element, ElementTable.WAITING, WaiterPool.END);
            for (int e = head; e != WaiterPool.END && possible; e = waiters.next(e)) {
                int r = waiters.txn(e);
                if (waiters.kind(e) == WAIT_WR) {
                    out.edge(txn, r, EdgeKind.WR);
                } else {
                    out.edge(r, txn, EdgeKind.RW);
                }
            }
            waiters.release(head);
        }
        int p = positionOf(element);
        if (p != LongIntMap.MISSING) {
            if (possible) {
                int before = predecessor(p);
                if (before >= 0) {
                    writeDepend(order.get(before), element, status, out);
                }
                int after = successor(p);
                if (after >= 0) {
                    writeDepend(element, order.get(after), status, out);
                }
            } else if (status.failed(txn)) {
                out.abortedRead(elements.get(element, ElementTable.REVEALER), key, element, txn);
            }
        } else if (offOrder != null && status.failed(txn) && offOrder.containsKey(element)) {
            out.abortedRead(offOrder.get(element), key, element, txn);
        }
        advanceDirtyScan(status, out, false);
    }

    private void advanceDirtyScan(TxnStatus status, TraceListener out, boolean settling) {
        dirtyUpdates.advance(this, status, out, settling);
    }

    /**
     * No further event for this key will come: place every append nobody read after the last
     * observed element (Elle's rule), report elements read that nobody appended (garbage reads;
     * until now a later invocation could still have claimed them), and finish the dirty-update
     * walk. Only possible writers
     * take part; writers still pending never completed and are left out, as Elle leaves out
     * operations without a completion.
     */
    public void settle(TxnStatus status, TraceListener out) {
        if (!broken) {
            placeUnreadAppends(status, out);
        }
        for (int p = 0; p < orderSize; p++) {
            long e = order.get(p);
            if (positionOf(e) == p && writerOf(e) == LongIntMap.MISSING) {
                out.garbageRead(elements.get(e, ElementTable.REVEALER), key, e);
            }
        }
        if (offOrder != null) {
            offOrder.forEach((e, reader) -> {
                if (writerOf(e) == LongIntMap.MISSING) {
                    out.garbageRead(reader, key, e);
                }
            });
        }
        advanceDirtyScan(status, out, true);
    }

    /** True when two reads of this key contradicted each other (incompatible-order). */
    public boolean broken() {
        return broken;
    }

    /** Every transaction that read this key (each once per run of reads). */
    public IntList readers() {
        return readers;
    }

    /** Calls {@code visitor} with each claimed element and its writer. */
    public void forEachWriter(LongIntMap.Visitor visitor) {
        elements.forEachWriter(visitor);
    }

    private void placeUnreadAppends(TxnStatus status, TraceListener out) {
        int lastPosition = lastDistinct();
        int lastWriter = lastPosition >= 0 ? writerOf(order.get(lastPosition)) : LongIntMap.MISSING;
        boolean lastPossible = lastWriter != LongIntMap.MISSING && status.possible(lastWriter);
        elements.forEachWriter((element, w) -> {
            if (positionOf(element) != LongIntMap.MISSING || !status.possible(w)) {
                return;
            }
            if (lastPossible) {
                out.edge(lastWriter, w, EdgeKind.WW);
            }
            for (int f = 0; f < lists.size(frontier); f++) {
                out.edge(lists.get(frontier, f), w, EdgeKind.RW);
            }
        });
    }

    /**
     * The element appended just before {@code element}, as Elle's explainers see it: its
     * predecessor in the order, or for an element nobody read, the last observed element.
     * Returns false (writing nothing) when it came first, after the initial empty state.
     */
    public boolean previousElement(long element, long[] out) {
        int p = positionOf(element);
        int before = p == LongIntMap.MISSING ? lastDistinct() : predecessor(p);
        if (before < 0) {
            return false;
        }
        out[0] = order.get(before);
        return true;
    }

    private long[] longestOrder;

    /**
     * For a key whose reads disagree: the order Elle settles on (its longest read, distinct
     * elements), which edges inferred at the end follow; explanations consult it too.
     */
    public void settleOn(long[] order) {
        longestOrder = order.clone();
    }

    /**
     * Like {@link #previousElement}, but in the order settled on for a key whose reads disagree.
     * Returns false when there is none or the element came first.
     */
    public boolean previousInSettledOrder(long element, long[] out) {
        if (longestOrder == null) {
            return false;
        }
        int p = -1;
        for (int i = 0; i < longestOrder.length; i++) {
            if (longestOrder[i] == element) {
                p = i;
                break;
            }
        }
        int before = p < 0 ? longestOrder.length - 1 : p - 1;
        if (before < 0) {
            return false;
        }
        out[0] = longestOrder[before];
        return true;
    }

    private static Map<Long, Integer> countDuplicates(long[] values) {
        Map<Long, Integer> counts = new HashMap<>();
        for (long v : values) {
            counts.merge(v, 1, Integer::sum);
        }
        counts.values().removeIf(c -> c < 2);
        return counts.isEmpty() ? null : counts;
    }
}
