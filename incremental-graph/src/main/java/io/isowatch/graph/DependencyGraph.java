package io.isowatch.graph;

/**
 * A read-only view of the dependency graph between transactions.
 *
 * <p>Nodes are transaction ids, dense from 0. A walk asks for one transaction's edges at a time
 * into an {@link Edges} it reuses, so that traversals allocate nothing.
 * Two transactions may be joined by several edges of different kinds; Elle explains such a pair
 * by its strongest relationship, which {@link #pairKind(int, int)} gives.
 */
public interface DependencyGraph {

    /** Number of nodes (transactions) known. */
    int nodeCount();

    /** Number of edges. */
    long edgeCount();

    /**
     * Fills {@code out} with {@code node}'s out-edges, newest first: the order the cycle search
     * walks, on which the cycle it reports among equally short ones depends. Allocates nothing
     * once {@code out} has grown.
     */
    void outEdges(int node, Edges out);

    /** Fills {@code out} with {@code node}'s out-edges in no particular order (cheaper). */
    void outEdgesInAnyOrder(int node, Edges out);

    /** Fills {@code in} with {@code node}'s in-edges (their sources), in no particular order. */
    void inEdges(int node, Edges in);

    /**
     * The kind Elle would use to explain {@code from -> to}: the first, in
     * {@link #explanationRank}'s order, among the edges joining them, or null when there is none.
     * Cost: the stored out-degree of {@code from}.
     */
    EdgeKind pairKind(int from, int to);

    /**
     * Where {@code kind} stands in the order Elle tries its explainers, 0 first: ww, wr, rw for
     * list-append; wr, ww, rw for rw-register (whose wr graph comes first); then process and
     * realtime.
     */
    int explanationRank(EdgeKind kind);
}
