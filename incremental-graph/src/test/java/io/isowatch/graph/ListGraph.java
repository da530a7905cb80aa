package io.isowatch.graph;

import java.util.ArrayList;
import java.util.List;

/**
 * The dependency graph as plain lists, every edge stored explicitly (realtime ones too), newest
 * first per source: the reference the implicit, evicting graph is compared with. Its eviction is
 * the definition: drop the forgotten transactions' lists and every edge to one, subtract the cut.
 */
final class ListGraph {

    private static final EdgeKind[] KINDS = EdgeKind.values();

    /** Per node, its out-edges as {target, kind ordinal}, newest first. */
    private final List<List<int[]>> out = new ArrayList<>();
    private long edges;

    int nodeCount() {
        return out.size();
    }

    long edgeCount() {
        return edges;
    }

    void ensureNode(int node) {
        while (out.size() <= node) {
            out.add(new ArrayList<>());
        }
    }

    /** {@link MutableDependencyGraph#addEdge}'s rule: no self-loop, no repeat of the newest out-edge. */
    boolean addEdge(int from, int to, EdgeKind kind) {
        if (from == to) {
            return false;
        }
        ensureNode(Math.max(from, to));
        List<int[]> list = out.get(from);
        if (!list.isEmpty() && list.get(0)[0] == to && list.get(0)[1] == kind.ordinal()) {
            return false;
        }
        list.add(0, new int[] {to, kind.ordinal()});
        edges++;
        return true;
    }

    /** A realtime edge, which is never a repeat: each predecessor is linked to a transaction once. */
    void addRealtimeEdge(int from, int to) {
        ensureNode(Math.max(from, to));
        out.get(from).add(0, new int[] {to, EdgeKind.REALTIME.ordinal()});
        edges++;
    }

    /** {@code node}'s newest out-edge other than a realtime one, as {target, kind ordinal}, or null. */
    int[] newestStoredKind(int node) {
        for (int[] edge : out.get(node)) {
            if (edge[1] != EdgeKind.REALTIME.ordinal()) {
                return edge.clone();
            }
        }
        return null;
    }

    void evictBelow(int cut) {
        List<List<int[]>> kept = new ArrayList<>(out.subList(cut, out.size()));
        out.clear();
        edges = 0;
        for (List<int[]> list : kept) {
            List<int[]> renumbered = new ArrayList<>();
            for (int[] edge : list) {
                if (edge[0] >= cut) {
                    renumbered.add(new int[] {edge[0] - cut, edge[1]});
                }
            }
            out.add(renumbered);
            edges += renumbered.size();
        }
    }

    /** {@code node}'s out-edges newest first, as "kind target". */
    List<String> outEdges(int node) {
        List<String> edges = new ArrayList<>();
        for (int[] edge : out.get(node)) {
            edges.add(KINDS[edge[1]].elleName() + " " + edge[0]);
        }
        return edges;
    }

    /** Every node's in-edges, sorted, as "source/kind ordinal". */
    List<List<String>> inEdges() {
        List<List<String>> in = new ArrayList<>();
        for (int node = 0; node < out.size(); node++) {
            in.add(new ArrayList<>());
        }
        for (int source = 0; source < out.size(); source++) {
            for (int[] edge : out.get(source)) {
                in.get(edge[0]).add(source + "/" + edge[1]);
            }
        }
        in.forEach(edges -> edges.sort(null));
        return in;
    }

    /** The kind of lowest {@code rank} among the edges {@code from -> to}, or null. */
    EdgeKind pairKind(int from, int to, DependencyGraph rank) {
        EdgeKind best = null;
        for (int[] edge : out.get(from)) {
            EdgeKind kind = KINDS[edge[1]];
            if (edge[0] == to && (best == null || rank.explanationRank(kind) < rank.explanationRank(best))) {
                best = kind;
            }
        }
        return best;
    }
}
