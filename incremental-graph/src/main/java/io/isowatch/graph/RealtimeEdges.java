package io.isowatch.graph;

import io.isowatch.collect.BytePages;
import io.isowatch.collect.IntList;
import io.isowatch.collect.IntPages;
import io.isowatch.collect.Slots;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * The realtime edges of Elle's realtime-graph, kept implicitly: about two thirds of a
 * strict-serializable history's edges, at 13 bytes each when stored, are here a few bytes per
 * transaction.
 *
 * <p>Elle keeps a buffer of committed transactions not yet followed by another committed one;
 * each invocation is linked from every transaction in the buffer (its snapshot), and a committed
 * completion replaces its own predecessors in it. Transaction ids are given at invocation, in
 * order, so a transaction {@code u} is in the snapshot of exactly the ids invoked while it was in
 * the buffer: a range {@code lo(u)..hi(u)}. Its realtime successors are the transactions of that
 * range whose edges have been added (a completion that is not a failure links its snapshot), and
 * only the range's two ends are stored. A transaction's predecessors are its snapshot, kept as
 * varint distances in one arena.
 *
 * <p>The cycle search walks a transaction's edges newest first, as the stored edge lists give
 * them, and which cycle it reports depends on that order. So each linked snapshot records how
 * many edges had been stored when it was linked, and where its record lies in the arena (which
 * grows in the order snapshots are linked): {@link MutableDependencyGraph} merges the two kinds of
 * edge back into the order in which they were added.
 *
 * <p>Edges into one transaction are added one at a time (the checker searches for cycles after
 * each); until the last is added, only the first ones of its snapshot exist. Not thread-safe.
 */
public final class RealtimeEdges {

    private static final int OPEN = Integer.MAX_VALUE;

    /**
     * Elle's buffer. Its order (additions at the end, removals by swapping the last in) is each
     * snapshot's order, and so the order in which a transaction's edges are added.
     */
    private final IntList buffer = new IntList();

    /**
     * Snapshots of transactions invoked and not yet completed (about as many as there are
     * clients), in reusable slots; a pending transaction's {@link #recordAt} holds {@code -2 - slot}.
     */
    private int[][] slotSources = new int[16][];
    private int[] slotCount = new int[16];
    private final Slots slots = new Slots();

    /** Per transaction in the buffer at some time: the first and last id invoked while it was there. */
    private final IntPages lo = new IntPages(-1);
    private final IntPages hi = new IntPages(-1);
    /**
     * Per linked transaction: how many edges were stored when its snapshot was linked, and where
     * its record is in the arena (while it is pending: its snapshot's slot, encoded as above).
     */
    private final IntPages storedBefore = new IntPages(-1);
    private final IntPages recordAt = new IntPages(-1);
    private final BytePages arena = new BytePages((byte) 0);
    private long arenaEnd;
    private int capacity;

    /** The transaction whose edges are being added, its snapshot, and how many are in. */
    private int linking = -1;
    private int linkingSlot;
    private int[] linkingSources;
    private int linkingCount;
    private int linkingDone;

    private long edges;

    /** Scratch of {@link #record}. */
    private byte[] scratch = new byte[64];
    /** Scratch of {@link #predecessors}. */
    private final int[] count = new int[1];
    /** Scratch of {@link #evictBelow}: one record's distances. */
    private int[] distances = new int[16];

    /** Scratch of {@link #newestFirst}: successors and their arena records. */
    private int[] sortedTargets = new int[16];
    private int[] sortedRecords = new int[16];
    private int[] sortedStoredBefore = new int[16];

    RealtimeEdges() {
    }

    void ensureNode(int node) {
        if (node < capacity) {
            return;
        }
        lo.ensure(node);
        hi.ensure(node);
        storedBefore.ensure(node);
        recordAt.ensure(node);
        capacity = lo.capacity();
    }

    /** Number of realtime edges added. */
    long edgeCount() {
        return edges;
    }

    // ---- the history's events, in index order ----

    /** {@code txn} was invoked: the buffer now is its snapshot of predecessors. */
    public void invoked(int txn) {
        int slot = takeSlot(txn, buffer.size());
        for (int i = 0; i < buffer.size(); i++) {
            slotSources[slot][i] = buffer.get(i);
        }
        slotCount[slot] = buffer.size();
    }

    /**
     * {@code txn}'s completion came without its invocation: nothing is known to precede it in
     * real time (Elle's realtime-graph links only at invocations).
     */
    public void invokedAtUnknownTime(int txn) {
        int slot = takeSlot(txn, 0); // before indexing: taking a slot may grow the arrays
        slotCount[slot] = 0;
    }

    /** How many transactions precede the pending {@code txn} in real time: its snapshot's size. */
    public int snapshotSize(int txn) {
        return slotCount[slotOf(txn)];
    }

    /**
     * The snapshot of the pending {@code txn}: its realtime predecessors, the first
     * {@link #snapshotSize} of this array, which is the slot's own (do not keep it).
     */
    public int[] snapshot(int txn) {
        return slotSources[slotOf(txn)];
    }

    /**
     * {@code txn} completed, its edges (if any) added: a committed one replaces its predecessors
     * in the buffer. {@code nodes} is the number of transaction ids given so far.
     */
    public void completed(int txn, boolean committed, int nodes) {
        int slot = slotOf(txn);
        if (committed) {
            int[] before = slotSources[slot];
            for (int k = 0; k < slotCount[slot]; k++) {
                int p = before[k];
                if (hi.get(p) != OPEN) {
                    continue; // an earlier completion replaced it already
                }
                for (int i = 0; i < buffer.size(); i++) {
                    if (buffer.get(i) == p) {
                        buffer.swapRemove(i);
                        hi.set(p, nodes - 1);
                        break;
                    }
                }
            }
            buffer.add(txn);
            lo.set(txn, nodes);
            hi.set(txn, OPEN);
        }
        if (linking == txn) {
            linking = -1;
            linkingSources = null;
        } else {
            recordAt.set(txn, -1);
        }
        slots.release(slot);
    }

    /**
     * Adds the edge {@code from -> to}, which must be the next of the pending {@code to}'s
     * snapshot. {@code stored} is the number of edges the graph has stored so far.
     */
    void add(int from, int to, int stored) {
        if (linking != to) {
            int slot = slotOf(to);
            linking = to;
            linkingSlot = slot;
            linkingSources = slotSources[slot];
            linkingCount = slotCount[slot];
            linkingDone = 0;
            storedBefore.set(to, stored);
            record(to, linkingSources, linkingCount);
        }
        if (linkingDone == linkingCount || linkingSources[linkingDone] != from) {
            throw new IllegalStateException("realtime edge " + from + " -> " + to + " is not the next of "
                    + to + "'s predecessors " + Arrays.toString(Arrays.copyOf(linkingSources, linkingCount))
                    + " (" + linkingDone + " added)");
        }
        linkingDone++;
        edges++;
    }

    private void record(int txn, int[] sources, int count) {
        ensureScratch(count);
        int length = putVarint(0, count);
        for (int i = 0; i < count; i++) {
            length = putVarint(length, txn - sources[i]);
        }
        if (arenaEnd > Integer.MAX_VALUE - length) {
            throw new IllegalStateException("more than 2 GiB of realtime predecessors: a checker holds at most"
                    + " about 200 million transactions of a strict history");
        }
        recordAt.set(txn, (int) arenaEnd);
        arena.ensure(arenaEnd + length);
        arena.set(arenaEnd, scratch, length);
        arenaEnd += length;
    }

    /** Makes {@link #scratch} hold a record of {@code count} varints and their count. */
    private void ensureScratch(int count) {
        ensureScratchBytes(5 * (count + 1));
    }

    private void ensureScratchBytes(int length) {
        if (scratch.length < length) {
            scratch = new byte[2 * length];
        }
    }

    private int putVarint(int at, int n) {
        while ((n & ~0x7F) != 0) {
            scratch[at++] = (byte) ((n & 0x7F) | 0x80);
            n >>>= 7;
        }
        scratch[at++] = (byte) n;
        return at;
    }

    // ---- queries ----

    /** Whether {@code to}'s edge from {@code from} has been added. */
    boolean has(int from, int to) {
        if (from >= capacity || to >= capacity) {
            return false;
        }
        int first = lo.get(from);
        if (first < 0 || to < first || to > hi.get(from) || storedBefore.get(to) < 0) {
            return false;
        }
        return to != linking || linkedYet(from);
    }

    private boolean linkedYet(int from) {
        for (int i = 0; i < linkingDone; i++) {
            if (linkingSources[i] == from) {
                return true;
            }
        }
        return false;
    }

    /** Appends {@code node}'s realtime successors to {@code out}, in id order. */
    void successors(int node, int nodes, Edges out) {
        if (node >= capacity) {
            return;
        }
        int first = lo.get(node);
        if (first < 0) {
            return;
        }
        int last = Math.min(hi.get(node), nodes - 1);
        int rt = EdgeKind.REALTIME.ordinal();
        for (int v = first; v <= last; v++) {
            if (storedBefore.get(v) >= 0 && (v != linking || linkedYet(node))) {
                out.add(v, rt);
            }
        }
    }

    /**
     * Collects {@code node}'s realtime successors newest first (the reverse of the order their
     * edges were added); returns how many. {@link #sortedTarget} and {@link #sortedStoredBefore}
     * give them.
     */
    int newestFirst(int node, int nodes) {
        if (node >= capacity) {
            return 0;
        }
        int first = lo.get(node);
        if (first < 0) {
            return 0;
        }
        int last = Math.min(hi.get(node), nodes - 1);
        int n = 0;
        for (int v = first; v <= last; v++) {
            int before = storedBefore.get(v);
            if (before < 0 || v == linking && !linkedYet(node)) {
                continue;
            }
            if (n == sortedTargets.length) {
                sortedTargets = Arrays.copyOf(sortedTargets, n * 2);
                sortedRecords = Arrays.copyOf(sortedRecords, n * 2);
                sortedStoredBefore = Arrays.copyOf(sortedStoredBefore, n * 2);
            }
            // Insertion by arena record, descending: records lie in the order edges were added.
            int at = recordAt.get(v);
            int i = n++;
            while (i > 0 && sortedRecords[i - 1] < at) {
                sortedTargets[i] = sortedTargets[i - 1];
                sortedRecords[i] = sortedRecords[i - 1];
                sortedStoredBefore[i] = sortedStoredBefore[i - 1];
                i--;
            }
            sortedTargets[i] = v;
            sortedRecords[i] = at;
            sortedStoredBefore[i] = before;
        }
        return n;
    }

    int sortedTarget(int i) {
        return sortedTargets[i];
    }

    int sortedStoredBefore(int i) {
        return sortedStoredBefore[i];
    }

    /** Appends {@code node}'s realtime predecessors whose edges have been added to {@code out}. */
    void predecessors(int node, Edges out) {
        int rt = EdgeKind.REALTIME.ordinal();
        if (node == linking) {
            for (int i = 0; i < linkingDone; i++) {
                out.add(linkingSources[i], rt);
            }
            return;
        }
        if (node >= capacity || storedBefore.get(node) < 0) {
            return;
        }
        long at = arena.getVarints(recordAt.get(node), 1, count, 0);
        out.addBelow(node, rt, arena, at, count[0]);
    }

    /**
     * The newest {@link #storedBefore} count among {@code node}'s realtime successors, or -1 when
     * it has none: its newest out-edge is a realtime one when that count exceeds its newest
     * stored edge's id. Cost: the size of its range.
     */
    int newestStoredBefore(int node, int nodes) {
        int first = node < capacity ? lo.get(node) : -1;
        int newest = -1;
        if (first >= 0) {
            int last = Math.min(hi.get(node), nodes - 1);
            for (int v = first; v <= last; v++) {
                if (v != linking || linkedYet(node)) {
                    newest = Math.max(newest, storedBefore.get(v));
                }
            }
        }
        return newest;
    }

    /** How many snapshots of pending transactions are held: what eviction frees of forgotten ones. */
    int pendingSnapshots() {
        return slots.held();
    }

    /** Bytes of predecessor records in the arena: those of retained transactions only, after eviction. */
    long arenaSize() {
        return arenaEnd;
    }

    // ---- eviction ----

    /** Throws unless no completion's edges are being added: eviction runs between events. */
    void requireIdle() {
        if (linking >= 0) {
            throw new IllegalStateException("cannot evict while the realtime edges into transaction " + linking
                    + " are being added (" + linkingDone + " of " + linkingCount + "): evict between events, once"
                    + " the completion has been handled");
        }
    }

    /**
     * Forgets the transactions below {@code cut} and renumbers the rest down by {@code cut}, as
     * {@link MutableDependencyGraph#evictBelow} describes; {@code nodes} is the number of ids
     * given before. {@code retainedStored} maps a count of stored edges to how many of those
     * edges the graph keeps; it is asked in link order, so with counts that never decrease.
     * Must not be called while edges are being added ({@link #requireIdle}).
     *
     * <p>The forgotten members of Elle's buffer and of pending snapshots are dropped, the rest
     * keep their order; a forgotten pending transaction's slot is freed (its completion never
     * comes). A retained transaction's successors all follow it, so they are all retained; its
     * record loses the predecessors that are forgotten, and the records keep their order (link
     * order) in an arena compacted in place. A record left with no predecessor is dropped, as if
     * it had never been linked: no retained range holds its transaction. Cost: linear in the
     * arena and the number of transactions, plus sorting the retained records by position.
     */
    void evictBelow(int cut, int nodes, IntUnaryOperator retainedStored) {
        for (int f = 0; f < cut; f++) {
            int at = recordAt.get(f);
            if (at <= -2) {
                slots.release(-2 - at);
            }
        }
        lo.removeBelow(cut, nodes);
        hi.removeBelow(cut, nodes);
        storedBefore.removeBelow(cut, nodes);
        recordAt.removeBelow(cut, nodes);
        capacity = lo.capacity();
        int kept = nodes - cut;
        for (int v = 0; v < kept; v++) {
            int first = lo.get(v);
            if (first >= 0) { // first > v >= cut before: a successor follows its predecessor
                lo.set(v, first - cut);
                int last = hi.get(v);
                hi.set(v, last == OPEN ? OPEN : last - cut);
            }
            int at = recordAt.get(v);
            if (at <= -2) {
                dropForgotten(slotSources[-2 - at], -2 - at, cut);
            }
        }
        compactArena(kept, retainedStored);
        int[] members = buffer.toArray();
        buffer.clear();
        for (int member : members) {
            if (member >= cut) {
                buffer.add(member - cut);
            }
        }
    }

    private void dropForgotten(int[] sources, int slot, int cut) {
        int kept = 0;
        for (int i = 0; i < slotCount[slot]; i++) {
            if (sources[i] >= cut) {
                sources[kept++] = sources[i] - cut;
            }
        }
        slotCount[slot] = kept;
    }

    /**
     * Rewrites the records of the {@code kept} renumbered transactions in link order, from 0 on,
     * and remaps their {@link #storedBefore} counts, which link order gives in non-decreasing order.
     */
    private void compactArena(int kept, IntUnaryOperator retainedStored) {
        int linked = 0;
        for (int v = 0; v < kept; v++) {
            linked += recordAt.get(v) >= 0 ? 1 : 0;
        }
        long[] byPosition = new long[linked];
        int n = 0;
        for (int v = 0; v < kept; v++) {
            int at = recordAt.get(v);
            if (at >= 0) {
                byPosition[n++] = (long) at << 32 | v;
            }
        }
        Arrays.sort(byPosition);
        long end = 0;
        edges = 0;
        for (long entry : byPosition) {
            int txn = (int) entry;
            storedBefore.set(txn, retainedStored.applyAsInt(storedBefore.get(txn)));
            end = moveRecord(txn, entry >>> 32, end);
        }
        arenaEnd = end;
        arena.truncate(end);
    }

    /**
     * Moves the renumbered {@code txn}'s record from {@code at} to {@code end}, which is not after
     * it, without its forgotten predecessors (those further than {@code txn} below it; distances
     * do not change with renumbering); returns the new end.
     */
    private long moveRecord(int txn, long at, long end) {
        long from = arena.getVarints(at, 1, count, 0);
        int n = count[0];
        if (distances.length < n) {
            distances = new int[Math.max(n, distances.length * 2)];
        }
        long afterRecord = arena.getVarints(from, n, distances, 0);
        int kept = 0;
        for (int i = 0; i < n; i++) {
            if (distances[i] <= txn) {
                distances[kept++] = distances[i];
            }
        }
        if (kept == 0) {
            recordAt.set(txn, -1);
            storedBefore.set(txn, -1);
            return end;
        }
        int length;
        if (kept == n) { // the usual case: every predecessor retained, so the bytes move as they are
            length = (int) (afterRecord - at);
            if (end != at) {
                ensureScratchBytes(length);
                arena.get(at, scratch, length);
                arena.set(end, scratch, length);
            }
        } else {
            ensureScratch(kept);
            length = putVarint(0, kept);
            for (int i = 0; i < kept; i++) {
                length = putVarint(length, distances[i]);
            }
            arena.set(end, scratch, length); // read whole before: the new record may overlap the old
        }
        recordAt.set(txn, (int) end);
        edges += kept;
        return end + length;
    }

    // ---- snapshot slots ----

    private int takeSlot(int txn, int size) {
        int slot = slots.take();
        if (slot == slotSources.length) {
            slotSources = Arrays.copyOf(slotSources, slot * 2);
            slotCount = Arrays.copyOf(slotCount, slot * 2);
        }
        if (slotSources[slot] == null || slotSources[slot].length < size) {
            slotSources[slot] = new int[Math.max(8, size * 2)];
        }
        recordAt.set(txn, -2 - slot);
        return slot;
    }

    private int slotOf(int txn) {
        if (txn == linking) {
            return linkingSlot;
        }
        int slot = txn < capacity ? -2 - recordAt.get(txn) : -1;
        if (slot < 0) {
            throw new IllegalStateException("transaction " + txn + " has no realtime snapshot: it was not invoked,"
                    + " or has completed");
        }
        return slot;
    }
}
