package io.isowatch.cycle;

import io.isowatch.collect.IntList;
import io.isowatch.graph.DependencyGraph;
import io.isowatch.graph.Edges;

import java.util.Arrays;

/**
 * Splits a set of transactions into the strongly connected components of the subgraph they
 * induce, numbered in a topological order of that subgraph's condensation.
 *
 * <p>Tarjan's algorithm, iterative: a component can have hundreds of thousands of members, a
 * recursion far too deep for a thread's stack. The induced edges are first copied into a compact
 * adjacency array, because a depth-first walk must resume each transaction's edge list where it
 * left it, and the graph fills one list at a time. Cost: O(members + induced edges) time and
 * about 28 bytes per member plus 4 per induced edge, all released on return.
 */
final class InducedComponents {

    private InducedComponents() {
    }

    /**
     * Gives each of {@code nodes[from..to)} (distinct, below {@code localOf.length}) the number
     * of its component, 0 first, into {@code piece[0..to-from)}: an edge between two components
     * goes from a lower number to a higher one. Returns the number of components.
     *
     * @param localOf scratch of any content, as long as the graph's nodes, overwritten at
     *                {@code nodes[from..to)}; a sparse set, so it needs no clearing between calls
     */
    static int split(DependencyGraph graph, int[] nodes, int from, int to, int[] localOf, int[] piece) {
        int count = to - from;
        for (int i = 0; i < count; i++) {
            localOf[nodes[from + i]] = i;
        }
        int[] start = new int[count + 1];
        int[] targets = inducedEdges(graph, nodes, from, count, localOf, start);
        int found = tarjan(count, start, targets, piece);
        for (int i = 0; i < count; i++) {
            piece[i] = found - 1 - piece[i]; // Tarjan completes sinks first
        }
        return found;
    }

    /** The induced edges, as local indices: those of member {@code i} at {@code start[i]..start[i+1]}. */
    private static int[] inducedEdges(DependencyGraph graph, int[] nodes, int from, int count, int[] localOf,
                                      int[] start) {
        IntList targets = new IntList(count);
        Edges edges = new Edges();
        for (int i = 0; i < count; i++) {
            start[i] = targets.size();
            graph.outEdgesInAnyOrder(nodes[from + i], edges);
            for (int e = 0; e < edges.size(); e++) {
                int t = edges.node(e);
                if (t < localOf.length) {
                    int li = localOf[t];
                    if (li >= 0 && li < count && nodes[from + li] == t) {
                        targets.add(li);
                    }
                }
            }
        }
        start[count] = targets.size();
        return targets.toArray();
    }

    /**
     * Tarjan over local indices; {@code piece[v]} gets components in the order they complete.
     * A visited node is still on Tarjan's stack exactly while it has no component yet.
     */
    private static int tarjan(int count, int[] start, int[] targets, int[] piece) {
        int[] index = new int[count]; // 0 = unvisited; visit numbers start at 1
        int[] low = new int[count];
        int[] next = new int[count]; // where each node's walk of its edges resumes
        int[] walk = new int[count];
        int[] open = new int[count];
        Arrays.fill(piece, 0, count, -1);
        int visits = 0;
        int found = 0;
        int openTop = 0;
        for (int root = 0; root < count; root++) {
            if (index[root] != 0) {
                continue;
            }
            int walkTop = 0;
            index[root] = low[root] = ++visits;
            next[root] = start[root];
            open[openTop++] = root;
            walk[walkTop++] = root;
            while (walkTop > 0) {
                int v = walk[walkTop - 1];
                if (next[v] < start[v + 1]) {
                    int w = targets[next[v]++];
                    if (index[w] == 0) {
                        index[w] = low[w] = ++visits;
                        next[w] = start[w];
                        open[openTop++] = w;
                        walk[walkTop++] = w;
                    } else if (piece[w] < 0) {
                        low[v] = Math.min(low[v], index[w]);
                    }
                    continue;
                }
                walkTop--;
                if (low[v] == index[v]) {
                    int w;
                    do {
                        w = open[--openTop];
                        piece[w] = found;
                    } while (w != v);
                    found++;
                }
                if (walkTop > 0) {
                    int u = walk[walkTop - 1];
                    low[u] = Math.min(low[u], low[v]);
                }
            }
        }
        return found;
    }
}
