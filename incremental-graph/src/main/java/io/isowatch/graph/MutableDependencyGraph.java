package io.isowatch.graph;

import io.isowatch.collect.BytePages;
import io.isowatch.collect.IntPages;

/**
 * The dependency graph, stored as edge pools with intrusive out- and in-lists.
 *
 * <p>Each edge costs 13 bytes (its two ends folded into one int, two list links, a kind byte) and
 * nothing else (the columns grow by pages, so there is no doubling slack). The ends are kept as
 * {@code source ^ target}: every walk reaches an edge from one of its ends, which gives the other
 * back, and a million transactions have millions of edges, so the saved int is tens of megabytes.
 * The evidence behind an edge is not stored either: it is recomputed from the transactions when an explanation is needed,
 * as Elle's explainers do. Self-loops are never stored. Only the checker that owns this graph
 * mutates it; everyone else sees {@link DependencyGraph}.
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
        nodes = node + 1;
    }

    /**
     * Adds {@code from -> to} of {@code edgeKind}. Returns false, storing nothing, for a self-loop
     * or when the newest out-edge of {@code from} is already this very edge (the common repeat).
     */
    public boolean addEdge(int from, int to, EdgeKind edgeKind) {
        if (from == to) {
            return false;
        }
        ensureNode(Math.max(from, to));
        int head = outHead.get(from);
        if (head >= 0 && (ends.get(head) ^ from) == to && kind.get(head) == edgeKind.ordinal()) {
            return false;
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

    @Override
    public int nodeCount() {
        return nodes;
    }

    @Override
    public long edgeCount() {
        return edges;
    }

    @Override
    public int firstOut(int node) {
        return node < nodes ? outHead.get(node) : -1;
    }

    @Override
    public int nextOut(int edge) {
        return nextOut.get(edge);
    }

    @Override
    public int firstIn(int node) {
        return node < nodes ? inHead.get(node) : -1;
    }

    @Override
    public int nextIn(int edge) {
        return nextIn.get(edge);
    }

    @Override
    public int target(int from, int edge) {
        return ends.get(edge) ^ from;
    }

    @Override
    public int source(int to, int edge) {
        return ends.get(edge) ^ to;
    }

    @Override
    public EdgeKind kind(int edge) {
        return KINDS[kind.get(edge)];
    }

    @Override
    public EdgeKind pairKind(int from, int to) {
        int best = -1;
        for (int e = firstOut(from); e >= 0; e = nextOut.get(e)) {
            int k = kind.get(e);
            if ((ends.get(e) ^ from) == to && (best < 0 || rank[k] < rank[best])) {
                best = k;
            }
        }
        return best < 0 ? null : KINDS[best];
    }
}
