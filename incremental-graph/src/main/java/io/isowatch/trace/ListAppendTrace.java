package io.isowatch.trace;

import io.isowatch.collect.IntList;
import io.isowatch.collect.IntListPool;
import io.isowatch.collect.LongIntMap;
import io.isowatch.collect.LongList;
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
 * <p>{@link #evictBelow} forgets the transactions below a cut and renumbers the rest, so that
 * a checker can run for days in bounded memory. The version order is knowledge of the whole
 * history and stays whole, so reads stored as prefixes of it still decode; an element whose
 * writer is forgotten keeps its place and counts as appended, but its writer never completes
 * here, so nothing waits for it. A trace that no retained transaction touched
 * ({@link #lastTouched}) is dropped by its owner. After an eviction a trace is
 * {@link #partial}: reads of forgotten transactions still pending will never arrive, so the
 * order may end short of the whole history's, and the settle-time inferences that rest on the
 * order's end (or on the longest read) are left out.
 *
 * <p>Costs: a read of length L costs O(L) for the prefix check plus O(1) per edge; memory is
 * O(appends) per key. Not thread-safe.
 */
public final class ListAppendTrace {

    private static final byte WAIT_WR = 0;
    private static final byte WAIT_RW = 1;

    /**
     * Garbage reads reported per transaction and key, when the key settles; a transaction's
     * further elements nobody appended are left out. Each finding names the whole read, so a read
     * of a million such elements would otherwise make a million findings of a million elements
     * each. Reads holding up to this many are reported whole.
     */
    public static final int GARBAGE_REPORTED_PER_READER = 8;

    /** What {@link #claim} returns for an element whose writer an eviction forgot. */
    public static final int FORGOTTEN_WRITER = -1;

    private final long key;
    private WaiterPool waiters;
    /** Holds {@code frontier}, shared by all traces: a list of up to one reader costs its head alone. */
    private IntListPool lists;

    /** The version order; elements are kept as ints while they fit, as histories' elements do. */
    private final NarrowLongColumn order = new NarrowLongColumn(4);
    private int orderSize;
    private final ElementTable elements = new ElementTable();
    /** Elements read outside the version order, with their first reader (keys whose reads disagree). */
    private LongIntMap offOrder;
    /** Readers of the last element, or of the empty list, that the next element anti-depends on. */
    private int frontier = IntListPool.EMPTY;
    /**
     * Every transaction that read this key, so a key whose reads disagree can be redone; not
     * kept once the trace is {@link #partial}, which rules that out.
     */
    private IntList readers = new IntList(2);
    private boolean partial;
    /** The highest transaction that claimed an element or read this key. */
    private int lastTouched = -1;
    private int firstDuplicate = Integer.MAX_VALUE;
    /** The order's positions that repeat an earlier element; null while there are none. */
    private RepeatRuns repeats;
    private boolean broken;

    /** Garbage reads reported so far, per reader: while the key settles, or all along when reads are judged at completion. */
    private LongIntMap garbageReported;
    /** When reads are judged at completion: whether this trace knows every claim on its key (see {@link ReadSettling}). */
    private final ReadSettling settling;
    private boolean knowsEveryClaim;
    /** Elements already judged garbage at their first reader's completion; settling skips them. Null while none. */
    private LongIntMap judgedGarbage;

    private final DirtyUpdateScan dirtyUpdates = new DirtyUpdateScan();
    /** The longest read of this key by a failed transaction (the first of its length), or null. */
    private long[] longestFailedRead;

    /** {@code partial}: made after an eviction, which may have lost reads of this key (see {@link #partial}). */
    ListAppendTrace(long key, WaiterPool waiters, IntListPool lists, boolean partial, ReadSettling settling) {
        this.key = key;
        this.waiters = waiters;
        this.lists = lists;
        this.partial = partial;
        this.settling = settling;
        this.knowsEveryClaim = settling.knowsEveryClaimOf(key);
    }

    public long key() {
        return key;
    }

    /**
     * Claims {@code element} for {@code txn} at its invocation. Returns the transaction that
     * already claimed it, {@link #FORGOTTEN_WRITER} when that transaction was evicted, or
     * {@link LongIntMap#MISSING}. An intermediate append that earlier reads already ended in is
     * reported as G1b for each of them.
     */
    public int claim(long element, int txn, boolean intermediateAppend, TraceListener out) {
        int previous = writerOf(element);
        if (previous != LongIntMap.MISSING) {
            return previous;
        }
        if (!elements.claim(element, txn, intermediateAppend)) {
            return FORGOTTEN_WRITER;
        }
        lastTouched = Math.max(lastTouched, txn);
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
        return orderRange(0, length);
    }

    /** The elements at positions {@code from} (inclusive) to {@code to} (exclusive) of the version order. */
    long[] orderRange(int from, int to) {
        if (from < 0 || from > to || to > orderSize) {
            throw new IndexOutOfBoundsException(
                    "positions " + from + " to " + to + " of a version order of " + orderSize);
        }
        long[] range = new long[to - from];
        for (int i = from; i < to; i++) {
            range[i - from] = order.get(i);
        }
        return range;
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

    /** Whether an eviction forgot the transaction that appended {@code element}. */
    boolean writerForgotten(long element) {
        return elements.writerForgotten(element);
    }

    /**
     * Takes a read by {@code reader}; returns true when it is a prefix of the version order (so
     * it can be stored as its length). {@code committedReader} enables the checks Elle applies
     * only to committed reads (G1b).
     */
    public boolean read(int reader, long[] values, boolean committedReader, TxnStatus status, TraceListener out) {
        lastTouched = Math.max(lastTouched, reader);
        if (!partial && (readers.isEmpty() || readers.get(readers.size() - 1) != reader)) {
            readers.add(reader);
        }
        int length = values.length;
        boolean compatible = agreesWithOrder(values, Math.min(length, orderSize));
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
        // A read within the order holds a repeat exactly when it reaches the order's first one;
        // one the order does not cover (a broken key's order no longer grows) is counted.
        boolean hasDuplicates = compatible && length <= orderSize ? length > firstDuplicate
                : countDuplicates(values) != null;
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
            judgeAtCompletion(reader, e, w, out);
        }
    }

    /**
     * Under the agent protocol, with every claim on this key known: an element its first reader
     * saw that no invocation so far claims was written by nobody, and is reported now rather than
     * when the key settles ({@link ReadSettling}).
     */
    private void judgeAtCompletion(int reader, long element, int writer, TraceListener out) {
        if (!knowsEveryClaim || !settling.live() || writer != LongIntMap.MISSING
                || elements.writerForgotten(element)) {
            return;
        }
        if (judgedGarbage == null) {
            judgedGarbage = new LongIntMap();
        }
        judgedGarbage.put(element, 1);
        if (countGarbage(reader) <= GARBAGE_REPORTED_PER_READER) {
            out.garbageReadAtCompletion(reader, key, element);
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
                if (repeats == null) {
                    repeats = new RepeatRuns();
                }
                repeats.add(i);
                continue;
            }
            elements.set(e, ElementTable.POSITION, i);
            elements.set(e, ElementTable.REVEALER, reader);
            // An element nobody has claimed yet may still be claimed by a later invocation (a
            // read from the future is a realtime anomaly, not garbage): settle() decides, unless
            // the history keeps the agent protocol, which rules such a claim out.
            int w = writerOf(e);
            if (w != LongIntMap.MISSING && status.failed(w)) {
                out.abortedRead(reader, key, e, w);
            }
            judgeAtCompletion(reader, e, w, out);
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
        return predecessor(orderSize);
    }

    /** The position of the next element after position {@code p} that is not a repeat, or -1. */
    private int successor(int p) {
        int q = repeats == null ? p + 1 : repeats.distinctAtOrAfter(p + 1);
        return q < orderSize ? q : -1;
    }

    /** The position of the last element before position {@code p} that is not a repeat, or -1. */
    private int predecessor(int p) {
        return repeats == null || p == 0 ? p - 1 : repeats.distinctAtOrBefore(p - 1);
    }

    /** wr: {@code reader} read {@code element} as its last. */
    private void dependOn(int reader, long element, TxnStatus status, TraceListener out) {
        int w = writerOf(element);
        if (w == reader) {
            return;
        }
        if (w == LongIntMap.MISSING) {
            waitForClaim(element, reader, WAIT_WR);
        } else if (status.pending(w)) {
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
        if (w == LongIntMap.MISSING) {
            waitForClaim(element, reader, WAIT_RW);
        } else if (status.pending(w)) {
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

    /**
     * An element nobody has claimed may still be claimed (a read from the future): wait for its
     * writer. Not so an element whose writer an eviction forgot: that writer never completes
     * here, and nothing would release the wait.
     */
    private void waitForClaim(long element, int reader, byte kind) {
        if (!elements.writerForgotten(element)) {
            waitFor(element, reader, kind);
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
                reportAbortedRead(elements.get(element, ElementTable.REVEALER), element, txn, out);
            }
        } else if (offOrder != null && status.failed(txn) && offOrder.containsKey(element)) {
            reportAbortedRead(offOrder.get(element), element, txn, out);
        }
        advanceDirtyScan(status, out, false);
    }

    /**
     * Takes a read by a transaction that failed. Nothing but Elle's dirty-update pass looks at
     * such reads, and only at the key's longest read (see {@link DirtyUpdateScan}): this keeps the
     * longest, and {@link #settle} walks it if it is longer than the order.
     */
    public void failedRead(long[] values) {
        if (values.length > 0 && (longestFailedRead == null || values.length > longestFailedRead.length)) {
            longestFailedRead = values;
        }
    }

    /** G1a for the first reader of {@code element}, unless an eviction forgot that reader. */
    private void reportAbortedRead(int reader, long element, int writer, TraceListener out) {
        if (reader >= 0) {
            out.abortedRead(reader, key, element, writer);
        }
    }

    private void advanceDirtyScan(TxnStatus status, TraceListener out, boolean settling) {
        dirtyUpdates.advance(this, status, out, settling);
    }

    /**
     * No further event for this key will come: place every append nobody read after the last
     * observed element (Elle's rule), report elements read that nobody appended (garbage reads;
     * until now a later invocation could still have claimed them), and finish the dirty-update
     * walk, along the longest failed read too when it is longer than the order. Only possible
     * writers take part; writers still pending never completed and are left out, as Elle leaves
     * out operations without a completion. A {@link #partial} trace places nothing: its order may end
     * short. Elements a forgotten transaction appended are not garbage, and a forgotten reader's
     * garbage read is not reported (it could only name that reader). Each transaction's first
     * {@link #GARBAGE_REPORTED_PER_READER} garbage reads of the key are reported.
     * O(order + elements read outside it).
     */
    public void settle(TxnStatus status, TraceListener out) {
        if (!broken && !partial) {
            placeUnreadAppends(status, out);
        }
        for (int p = 0; p < orderSize; p++) {
            long e = order.get(p);
            if (positionOf(e) == p) {
                reportIfGarbage(elements.get(e, ElementTable.REVEALER), e, out);
            }
        }
        if (offOrder != null) {
            offOrder.forEach((e, reader) -> reportIfGarbage(reader, e, out));
        }
        garbageReported = null;
        judgedGarbage = null;
        advanceDirtyScan(status, out, true);
        long[] walk = dirtyUpdateRead();
        if (walk != null) {
            boolean extendsOrder = walk.length >= orderSize && agreesWithOrder(walk, orderSize);
            dirtyUpdates.walkRead(this, walk, extendsOrder, status, out);
        }
    }

    /**
     * The read Elle's dirty-update pass walks on this key where it is not the order walked so
     * far, or null. Elle walks the key's longest read of any client op ({@code sorted-values}
     * over {@code h/client-ops}, list_append.clj 955-958): the longest read of an ok or info
     * transaction (the order, or for a key whose reads disagree the read {@link #settleOn}
     * took), or a failed transaction's read when that is longer. A tie between a failed read
     * and the other is Elle's arbitrary pick; the other stays. A partial key's longest read may
     * be one never seen here, so none is walked.
     */
    private long[] dirtyUpdateRead() {
        if (partial) {
            return null;
        }
        if (broken && longestRead == null) {
            throw new IllegalStateException("settle() of key " + key + ", whose reads disagree, before settleOn()");
        }
        long[] possible = broken ? longestRead : null;
        int possibleLength = broken ? longestRead.length : orderSize;
        if (longestFailedRead != null && longestFailedRead.length > possibleLength) {
            return longestFailedRead;
        }
        return possible;
    }

    /** Whether the first {@code n} of {@code values} are the order's first {@code n}. */
    private boolean agreesWithOrder(long[] values, int n) {
        for (int i = 0; i < n; i++) {
            if (values[i] != order.get(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Garbage: nobody appended {@code element}, not even a transaction an eviction forgot. The
     * first {@link #GARBAGE_REPORTED_PER_READER} of a reader's are reported.
     */
    private void reportIfGarbage(int reader, long element, TraceListener out) {
        if (reader < 0 || writerOf(element) != LongIntMap.MISSING || elements.writerForgotten(element)
                || (judgedGarbage != null && judgedGarbage.containsKey(element))) {
            return;
        }
        if (countGarbage(reader) <= GARBAGE_REPORTED_PER_READER) {
            out.garbageRead(reader, key, element);
        }
    }

    /** Counts one more garbage read of {@code reader}'s and returns how many it has now. */
    private int countGarbage(int reader) {
        if (garbageReported == null) {
            garbageReported = new LongIntMap();
        }
        int before = garbageReported.get(reader);
        int n = before == LongIntMap.MISSING ? 1 : before + 1;
        garbageReported.put(reader, n);
        return n;
    }

    /** True when two reads of this key contradicted each other (incompatible-order). */
    public boolean broken() {
        return broken;
    }

    /** Every transaction that read this key (each once per run of reads); none once {@link #partial}. */
    public IntList readers() {
        return readers;
    }

    /**
     * Whether this trace may lack reads of its key: an eviction forgot readers, and the reads of
     * forgotten transactions still pending will never arrive (their completions are skipped).
     * Which keys those would have read is not known here, so every trace that lived through an
     * eviction, or was made after one, is partial. Its order may end short of the whole
     * history's, and its longest read may not be Elle's: settling then neither places appends
     * nobody read after the order's end nor redoes a key whose reads disagree.
     */
    public boolean partial() {
        return partial;
    }

    /** The highest transaction that claimed one of this key's elements or read the key, or -1. */
    public int lastTouched() {
        return lastTouched;
    }

    /** Calls {@code visitor} with each claimed element and its writer. */
    public void forEachWriter(LongIntMap.Visitor visitor) {
        elements.forEachWriter(visitor);
    }

    /**
     * Forgets the transactions below {@code cut} and renumbers the rest by {@code -cut}, moving
     * this trace's waiting readers and frontier to the pools {@code waiters} and {@code lists}
     * (its owner drops the old ones whole). The order, positions and duplicates stay: they are
     * true of the whole history. Forgotten readers lose their edges and findings still to come;
     * a forgotten writer's element counts as appended by a writer that never completes. Call
     * only while {@link #lastTouched} is at least {@code cut} (else drop the trace).
     * O(elements + readers + waiters).
     */
    void evictBelow(int cut, WaiterPool waiters, IntListPool lists) {
        elements.evictBelow(cut, this.waiters, waiters);
        int kept = IntListPool.EMPTY;
        for (int f = 0; f < this.lists.size(frontier); f++) {
            int reader = this.lists.get(frontier, f);
            if (reader >= cut) {
                kept = lists.add(kept, reader - cut);
            }
        }
        frontier = kept;
        this.waiters = waiters;
        this.lists = lists;
        if (offOrder != null) {
            LongIntMap firstReaders = new LongIntMap();
            // A forgotten first reader stays as FORGOTTEN: later readers of the element were never
            // its first, and reporting them would name reads the whole history does not report.
            offOrder.forEach((e, reader) -> firstReaders.put(e, reader >= cut ? reader - cut : ElementTable.FORGOTTEN));
            offOrder = firstReaders;
        }
        partial = true;
        readers = new IntList(1);
        dirtyUpdates.evictBelow(cut);
        lastTouched -= cut;
        if (garbageReported != null) {
            // Counts of forgotten readers go; their judged elements stay judged (they name no transaction).
            LongIntMap counts = new LongIntMap();
            garbageReported.forEach((reader, n) -> {
                if (reader >= cut) {
                    counts.put(reader - cut, n);
                }
            });
            garbageReported = counts;
        }
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

    /** For a key whose reads disagree: the longest read of an ok or info transaction, as read. */
    private long[] longestRead;
    /** {@link #longestRead}'s distinct elements, in order. */
    private long[] longestOrder;

    /**
     * For a key whose reads disagree: settles on {@code read}, the longest of its ok and info
     * reads, as Elle does. Its distinct elements are the order that edges inferred at the end
     * follow ({@link #settledOrder}), and that explanations consult; the dirty-update walk
     * takes the read itself into account when the key settles.
     */
    public void settleOn(long[] read) {
        longestRead = read.clone();
        LongIntMap seen = new LongIntMap();
        LongList distinct = new LongList();
        for (long e : read) {
            if (!seen.containsKey(e)) {
                seen.put(e, distinct.size());
                distinct.add(e);
            }
        }
        longestOrder = distinct.toArray();
    }

    /** The order settled on by {@link #settleOn}: the longest read's distinct elements. */
    public long[] settledOrder() {
        return longestOrder.clone();
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
