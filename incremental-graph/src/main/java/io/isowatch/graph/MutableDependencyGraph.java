package io.isowatch.graph;

import java.util.Arrays;

/**
 * The dependency graph, stored as edge pools with intrusive out- and in-lists.
 *
 * <p>Each edge costs 17 bytes (source, target, two list links, a kind byte) and nothing else:
 * the evidence behind an edge is recomputed from the transactions when an explanation is needed,
 * as Elle's explainers do. Self-loops are never stored. Only the checker that owns this graph
 * mutates it; everyone else sees {@link DependencyGraph}.
 */
public final class MutableDependencyGraph implements DependencyGraph {

    private static final EdgeKind[] KINDS = EdgeKind.values();

    private int[] outHead = new int[1024];
    private int[] inHead = new int[1024];
    private int nodes;

    private int[] source = new int[4096];
    private int[] target = new int[4096];
    private int[] nextOut = new int[4096];
    private int[] nextIn = new int[4096];
    private byte[] kind = new byte[4096];
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
        Arrays.fill(outHead, -1);
        Arrays.fill(inHead, -1);
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
        if (node >= outHead.length) {
            int cap = Math.max(outHead.length * 2, node + 1);
            int old = outHead.length;
            outHead = Arrays.copyOf(outHead, cap);
            inHead = Arrays.copyOf(inHead, cap);
            Arrays.fill(outHead, old, cap, -1);
            Arrays.fill(inHead, old, cap, -1);
        }
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
        int head = outHead[from];
        if (head >= 0 && target[head] == to && kind[head] == edgeKind.ordinal()) {
            return false;
        }
        if (edges == source.length) {
            int cap = edges * 2;
            source = Arrays.copyOf(source, cap);
            target = Arrays.copyOf(target, cap);
            nextOut = Arrays.copyOf(nextOut, cap);
            nextIn = Arrays.copyOf(nextIn, cap);
            kind = Arrays.copyOf(kind, cap);
        }
        int e = edges++;
        source[e] = from;
        target[e] = to;
        kind[e] = (byte) edgeKind.ordinal();
        nextOut[e] = outHead[from];
        outHead[from] = e;
        nextIn[e] = inHead[to];
        inHead[to] = e;
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
        return node < nodes ? outHead[node] : -1;
    }

    @Override
    public int nextOut(int edge) {
        return nextOut[edge];
    }

    @Override
    public int firstIn(int node) {
        return node < nodes ? inHead[node] : -1;
    }

    @Override
    public int nextIn(int edge) {
        return nextIn[edge];
    }

    @Override
    public int source(int edge) {
        return source[edge];
    }

    @Override
    public int target(int edge) {
        return target[edge];
    }

    @Override
    public EdgeKind kind(int edge) {
        return KINDS[kind[edge]];
    }

    @Override
    public EdgeKind pairKind(int from, int to) {
        int best = -1;
        for (int e = firstOut(from); e >= 0; e = nextOut[e]) {
            if (target[e] == to && (best < 0 || rank[kind[e]] < rank[best])) {
                best = kind[e];
            }
        }
        return best < 0 ? null : KINDS[best];
    }
}
