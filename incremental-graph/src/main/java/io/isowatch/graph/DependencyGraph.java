package io.isowatch.graph;

/**
 * A read-only view of the dependency graph between transactions.
 *
 * <p>Nodes are transaction ids, dense from 0. Edges are kept in pools and walked by index, so
 * that traversals allocate nothing: {@code for (int e = firstOut(n); e >= 0; e = nextOut(e))}.
 * Two transactions may be joined by several edges of different kinds; Elle explains such a pair
 * by its strongest relationship, which {@link #pairKind(int, int)} gives.
 */
public interface DependencyGraph {

    /** Number of nodes (transactions) known. */
    int nodeCount();

    /** Number of edges. */
    long edgeCount();

    /** The first out-edge of {@code node}, or -1. */
    int firstOut(int node);

    /** The next out-edge after {@code edge} from the same source, or -1. */
    int nextOut(int edge);

    /** The first in-edge of {@code node}, or -1. */
    int firstIn(int node);

    /** The next in-edge after {@code edge} into the same target, or -1. */
    int nextIn(int edge);

    /** The target of {@code edge}, an out-edge of {@code from}: edges are reached from an end. */
    int target(int from, int edge);

    /** The source of {@code edge}, an in-edge of {@code to}. */
    int source(int to, int edge);

    EdgeKind kind(int edge);

    /**
     * The kind Elle would use to explain {@code from -> to}: the first, in
     * {@link #explanationRank}'s order, among the edges joining them, or null when there is none.
     * Cost: the out-degree of {@code from}.
     */
    EdgeKind pairKind(int from, int to);

    /**
     * Where {@code kind} stands in the order Elle tries its explainers, 0 first: ww, wr, rw for
     * list-append; wr, ww, rw for rw-register (whose wr graph comes first); then process and
     * realtime.
     */
    int explanationRank(EdgeKind kind);
}
