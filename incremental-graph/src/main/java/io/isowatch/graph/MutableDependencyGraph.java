package io.isowatch.graph;

import io.isowatch.collect.BytePages;
import io.isowatch.collect.IntPages;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * The dependency graph: stored edges in pools with intrusive out- and in-lists, and the realtime
 * order kept implicitly ({@link RealtimeEdges}).
 *
 * <p>Each stored edge costs 13 bytes (its two ends folded into one int, two list links, a kind
 * byte) and nothing else (the columns grow by pages, so there is no doubling slack). The ends are
 * kept as {@code source ^ target}: every walk reaches an edge from one of its ends, which gives
 * the other back, and a million transactions have millions of edges, so the saved int is tens of
 * megabytes. Realtime edges, two thirds of a strict history's, are not stored one by one; a walk
 * of a transaction's out-edges gives both kinds back merged in the order they were added, so the
 * cycle search sees exactly the lists it would see had every edge been stored. The evidence behind
 * an edge is not stored either: it is recomputed from the transactions when an explanation is
 * needed, as Elle's explainers do. Self-loops are never stored. Only the checker that owns this
 * graph mutates it; everyone else sees {@link DependencyGraph}.
 */
public final class MutableDependencyGraph implements DependencyGraph {

    private static final EdgeKind[] KINDS = EdgeKind.values();

    private final IntPages outHead = new IntPages(-1);
    private final IntPages inHead = new IntPages(-1);
    private int nodes;

    /** {@code source ^ target} per edge. */
    private final IntPages ends = new IntPages(0);
    private final IntPages nextOut = new IntPages(0);
    private final IntPages nextIn = new IntPages(0);
    private final BytePages kind = new BytePages((byte) 0);
    private int edges;

    private final RealtimeEdges realtime = new RealtimeEdges();
    /** One bit per node: its newest out-edge is an implicit realtime edge (see {@link #addEdge}). */
    private long[] realtimeNewest = new long[16];

    /** Ranks per kind ordinal: list-append's explanation order. */
    public static final int[] LIST_APPEND_EXPLANATIONS = {0, 1, 2, 3, 4};
    /** rw-register explains wr before ww. */
    public static final int[] REGISTER_EXPLANATIONS = {1, 0, 2, 3, 4};

    private final int[] rank;

    /** A graph explaining pairs in list-append's order. */
    public MutableDependencyGraph() {
        this(LIST_APPEND_EXPLANATIONS);
    }

    /** A graph explaining pairs in the given order: {@code rank[kind.ordinal()]}, 0 first. */
    public MutableDependencyGraph(int[] rank) {
        if (rank.length != KINDS.length) {
            throw new IllegalArgumentException("need a rank for each of " + KINDS.length + " edge kinds, got "
                    + rank.length);
        }
        this.rank = rank.clone();
    }

    @Override
    public int explanationRank(EdgeKind kind) {
        return rank[kind.ordinal()];
    }

    /** Makes sure nodes {@code 0..node} exist. */
    public void ensureNode(int node) {
        if (node < nodes) {
            return;
        }
        outHead.ensure(node);
        inHead.ensure(node);
        if (node >>> 6 >= realtimeNewest.length) {
            realtimeNewest = Arrays.copyOf(realtimeNewest, Math.max(realtimeNewest.length * 2, (node >>> 6) + 1));
        }
        realtime.ensureNode(node);
        nodes = node + 1;
    }

    /**
     * Adds {@code from -> to} of {@code edgeKind}. Returns false, storing nothing, for a self-loop
     * or when the newest out-edge of {@code from} is already this very edge (the common repeat).
     * The checker adds realtime edges with {@link #addRealtimeEdge}; a realtime edge given here is
     * stored like any other.
     */
    public boolean addEdge(int from, int to, EdgeKind edgeKind) {
        if (from == to) {
            return false;
        }
        ensureNode(Math.max(from, to));
        int head = outHead.get(from);
        boolean realtimeNewer = realtimeNewest(from);
        if (head >= 0 && (ends.get(head) ^ from) == to && kind.get(head) == edgeKind.ordinal() && !realtimeNewer) {
            return false;
        }
        if (realtimeNewer) {
            setRealtimeNewest(from, false);
        }
        if (edges == Integer.MAX_VALUE) { // edge ids are ints: refuse rather than wrap round
            throw new IllegalStateException("more than " + Integer.MAX_VALUE + " stored edges: a checker holds at most"
                    + " several hundred million transactions (the stream job starts a new one every history-retention)");
        }
        int e = edges++;
        if (e == ends.capacity()) { // the four columns always grow together, a page at a time
            ends.ensure(e);
            nextOut.ensure(e);
            nextIn.ensure(e);
            kind.ensure(e);
        }
        ends.set(e, from ^ to);
        kind.set(e, (byte) edgeKind.ordinal());
        nextOut.set(e, head);
        outHead.set(from, e);
        nextIn.set(e, inHead.get(to));
        inHead.set(to, e);
        return true;
    }

    /**
     * Adds the realtime edge {@code from -> to}: the next of {@code to}'s predecessors in the
     * snapshot {@link #realtime()} took at its invocation. Stores nothing of the edge itself.
     */
    public boolean addRealtimeEdge(int from, int to) {
        realtime.add(from, to, edges);
        setRealtimeNewest(from, true);
        return true;
    }

    /** The realtime order, kept implicitly: the checker reports invocations and completions to it. */
    public RealtimeEdges realtime() {
        return realtime;
    }

    /**
     * Forgets the transactions below {@code cut} and every edge touching one, stored or realtime,
     * and renumbers the rest down by {@code cut}: afterwards ids {@code 0..nodeCount()-1} are
     * those that were {@code cut..}, and new ones continue from there. The checker calls it
     * between two events, never while a completion's edges are being added.
     *
     * <p>The graph is then the one it was without the forgotten transactions' edges, walked in
     * the same order: retained stored edges keep their relative order (and realtime ones their
     * place among them), so every out-list is the old one minus the forgotten ends, and the
     * "drop an immediate repeat" rule of {@link #addEdge} sees the newest retained out-edge. An
     * edge stored twice because a since-forgotten edge came between the two stays stored twice.
     * Elle's buffer and pending snapshots lose their forgotten members: a forgotten transaction
     * is linked to no later one, and a retained one gets exactly the realtime edges it would have
     * had, minus those from forgotten ones ({@link RealtimeEdges#evictBelow}). Only the order in
     * which a later transaction's predecessors are linked may differ from a graph that forgot
     * nothing (Elle's buffer no longer swaps a forgotten member out); no out-list's order
     * depends on it. {@link #edgeCount} counts the retained edges only. Pages that held
     * forgotten data are dropped.
     *
     * <p>Cost: linear in the stored edges and the transactions, plus sorting the retained
     * snapshot records; the per-edge paths are unchanged.
     *
     * @throws IllegalArgumentException when {@code cut} is outside {@code 0..nodeCount()}
     * @throws IllegalStateException while a completion's realtime edges are being added
     */
    public void evictBelow(int cut) {
        if (cut < 0 || cut > nodes) {
            throw new IllegalArgumentException("cannot evict the transactions below " + cut + ": the graph has "
                    + nodes + " (give a cut from 0 to " + nodes + ")");
        }
        realtime.requireIdle();
        if (cut == 0) {
            return;
        }
        int kept = keepEdgesBetweenRetained(cut);
        realtime.evictBelow(cut, nodes, new KeptEdgesBefore(kept));
        relink(cut, kept);
        nodes -= cut;
        realtimeNewest = new long[Math.max(16, (nodes >>> 6) + 1)];
        for (int node = 0; node < nodes; node++) {
            setRealtimeNewest(node, realtime.newestStoredBefore(node, nodes) > outHead.get(node));
        }
    }

    /**
     * Moves the stored edges whose ends are both retained down to {@code 0..kept-1}, in their
     * order, and returns {@code kept}. Afterwards each kept edge's {@link #ends} hold its
     * renumbered ends, {@link #nextOut} its renumbered source and {@link #nextIn} its old id, for
     * {@link KeptEdgesBefore} and {@link #relink}. Only retained sources' out-lists are walked
     * (edges are reached from their source, which the folded ends do not name); the forgotten
     * sources' edges are marked by a sequential fill instead, which costs less than chasing them.
     */
    private int keepEdgesBetweenRetained(int cut) {
        for (int e = 0; e < edges; e++) {
            nextIn.set(e, -1);
        }
        for (int node = cut; node < nodes; node++) {
            for (int e = outHead.get(node); e >= 0; e = nextOut.get(e)) {
                nextIn.set(e, node);
            }
        }
        int kept = 0;
        for (int e = 0; e < edges; e++) {
            int from = nextIn.get(e);
            if (from < 0) {
                continue;
            }
            int to = ends.get(e) ^ from;
            if (to >= cut) {
                ends.set(kept, (from - cut) ^ (to - cut));
                kind.set(kept, kind.get(e));
                nextOut.set(kept, from - cut);
                nextIn.set(kept, e);
                kept++;
            }
        }
        return kept;
    }

    /**
     * How many of the first {@code stored} edges were kept, for counts given in non-decreasing
     * order (realtime records are visited in link order, and each was linked when the graph had
     * stored as many edges as its count says): a cursor over the kept edges' old ids, so the
     * whole remap is one merge rather than a binary search per record.
     */
    private final class KeptEdgesBefore implements IntUnaryOperator {
        private final int kept;
        private int cursor;
        private int lastStored;

        KeptEdgesBefore(int kept) {
            this.kept = kept;
        }

        @Override
        public int applyAsInt(int stored) {
            if (stored < lastStored) {
                throw new IllegalStateException("stored-edge counts must come in order: " + stored + " after "
                        + lastStored);
            }
            lastStored = stored;
            while (cursor < kept && nextIn.get(cursor) < stored) {
                cursor++;
            }
            return cursor;
        }
    }

    /** Rebuilds the out- and in-lists of the kept edges, newest first as they were added, and drops the rest. */
    private void relink(int cut, int kept) {
        int retained = nodes - cut;
        outHead.truncate(retained);
        inHead.truncate(retained);
        for (int node = 0; node < retained; node++) {
            outHead.set(node, -1);
            inHead.set(node, -1);
        }
        for (int e = 0; e < kept; e++) {
            int from = nextOut.get(e);
            int to = ends.get(e) ^ from;
            nextOut.set(e, outHead.get(from));
            outHead.set(from, e);
            nextIn.set(e, inHead.get(to));
            inHead.set(to, e);
        }
        edges = kept;
        ends.truncate(kept); // the four columns keep growing together
        nextOut.truncate(kept);
        nextIn.truncate(kept);
        kind.truncate(kept);
    }

    /** Whether {@code node}'s newest out-edge is an implicit realtime one, newer than its stored head. */
    private boolean realtimeNewest(int node) {
        return (realtimeNewest[node >>> 6] & (1L << node)) != 0;
    }

    private void setRealtimeNewest(int node, boolean newest) {
        if (newest) {
            realtimeNewest[node >>> 6] |= 1L << node;
        } else {
            realtimeNewest[node >>> 6] &= ~(1L << node);
        }
    }

    @Override
    public int nodeCount() {
        return nodes;
    }

    @Override
    public long edgeCount() {
        return edges + realtime.edgeCount();
    }

    @Override
    public void outEdges(int node, Edges out) {
        out.clear();
        if (node >= nodes) {
            return;
        }
        int e = outHead.get(node);
        int implicit = realtime.newestFirst(node, nodes);
        int j = 0;
        int rt = EdgeKind.REALTIME.ordinal();
        while (e >= 0 || j < implicit) {
            // A stored edge is newer than a realtime one when it was stored after that one's snapshot was linked.
            if (j == implicit || e >= 0 && e >= realtime.sortedStoredBefore(j)) {
                out.add(ends.get(e) ^ node, kind.get(e));
                e = nextOut.get(e);
            } else {
                out.add(realtime.sortedTarget(j++), rt);
            }
        }
    }

    @Override
    public void outEdgesInAnyOrder(int node, Edges out) {
        out.clear();
        if (node >= nodes) {
            return;
        }
        for (int e = outHead.get(node); e >= 0; e = nextOut.get(e)) {
            out.add(ends.get(e) ^ node, kind.get(e));
        }
        realtime.successors(node, nodes, out);
    }

    @Override
    public void inEdges(int node, Edges in) {
        in.clear();
        if (node >= nodes) {
            return;
        }
        for (int e = inHead.get(node); e >= 0; e = nextIn.get(e)) {
            in.add(ends.get(e) ^ node, kind.get(e));
        }
        realtime.predecessors(node, in);
    }

    @Override
    public EdgeKind pairKind(int from, int to) {
        int best = -1;
        if (from < nodes) {
            for (int e = outHead.get(from); e >= 0; e = nextOut.get(e)) {
                int k = kind.get(e);
                if ((ends.get(e) ^ from) == to && (best < 0 || rank[k] < rank[best])) {
                    best = k;
                }
            }
        }
        int rt = EdgeKind.REALTIME.ordinal();
        if (realtime.has(from, to) && (best < 0 || rank[rt] < rank[best])) {
            best = rt;
        }
        return best < 0 ? null : KINDS[best];
    }
}
