package io.isowatch.cycle;

import io.isowatch.graph.DependencyGraph;
import io.isowatch.graph.EdgeKind;
import io.isowatch.graph.Edges;
import io.isowatch.graph.MutableDependencyGraph;

import java.util.ArrayList;
import java.util.List;

/**
 * A graph whose contents a test replaces wholesale, standing in for a graph that evicts in place:
 * the index keeps the view it was built with, and the test swaps in a fresh graph holding only
 * the retained edges, renumbered, in their original order.
 */
final class ReplaceableGraph implements DependencyGraph {

    private MutableDependencyGraph current = new MutableDependencyGraph();
    /** The stored edges of {@link #current}, as {from, to, kind ordinal}, in the order stored. */
    private List<int[]> stored = new ArrayList<>();

    /** Adds an edge; true when the graph stored it (as the checker, report it to the index then). */
    boolean add(int from, int to, EdgeKind kind) {
        if (!current.addEdge(from, to, kind)) {
            return false;
        }
        stored.add(new int[] {from, to, kind.ordinal()});
        return true;
    }

    /** What the graph's own eviction leaves: the edges between nodes at or above {@code cut}, renumbered. */
    void evictBelow(int cut) {
        List<int[]> kept = stored;
        current = new MutableDependencyGraph();
        stored = new ArrayList<>();
        for (int[] e : kept) {
            if (e[0] >= cut && e[1] >= cut) {
                add(e[0] - cut, e[1] - cut, EdgeKind.values()[e[2]]);
            }
        }
    }

    List<int[]> stored() {
        return stored;
    }

    @Override
    public int nodeCount() {
        return current.nodeCount();
    }

    @Override
    public long edgeCount() {
        return current.edgeCount();
    }

    @Override
    public void outEdges(int node, Edges out) {
        current.outEdges(node, out);
    }

    @Override
    public void outEdgesInAnyOrder(int node, Edges out) {
        current.outEdgesInAnyOrder(node, out);
    }

    @Override
    public void inEdges(int node, Edges in) {
        current.inEdges(node, in);
    }

    @Override
    public EdgeKind pairKind(int from, int to) {
        return current.pairKind(from, to);
    }

    @Override
    public int explanationRank(EdgeKind kind) {
        return current.explanationRank(kind);
    }
}
