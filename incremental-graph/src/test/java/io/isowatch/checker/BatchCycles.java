package io.isowatch.checker;

import io.isowatch.graph.EdgeKind;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The graph half of the batch references: the dependency graph, Tarjan's strongly connected
 * components and every simple cycle of a component. Elle's search over these, and the kind that
 * explains each pair, live in {@link BatchElleSearch}.
 *
 * <p>Enumerating simple cycles is exponential in the worst case; past {@link #MAX_CYCLES} in one
 * component the answer is null and the caller skips the case. Fine for the small histories the
 * properties generate.
 */
final class BatchCycles {

    static final int MAX_CYCLES = 20_000;

    /** A directed graph over transaction ids; each ordered pair carries a set of edge kinds. */
    static final class Graph {
        final Map<Integer, Map<Integer, EnumSet<EdgeKind>>> out = new TreeMap<>();

        void link(int from, int to, EdgeKind kind) {
            if (from == to) {
                throw new IllegalStateException("self-loop " + from + " " + kind);
            }
            out.computeIfAbsent(from, k -> new TreeMap<>())
                    .computeIfAbsent(to, k -> EnumSet.noneOf(EdgeKind.class)).add(kind);
            out.computeIfAbsent(to, k -> new TreeMap<>());
        }

        /** Distinct (pair, kind) edges. */
        int edgeCount() {
            return out.values().stream().flatMap(m -> m.values().stream()).mapToInt(Set::size).sum();
        }

        EnumSet<EdgeKind> kinds(int from, int to) {
            EnumSet<EdgeKind> k = out.getOrDefault(from, Map.of()).get(to);
            return k == null ? EnumSet.noneOf(EdgeKind.class) : k;
        }

        Set<Integer> successors(int node) {
            return out.getOrDefault(node, Map.of()).keySet();
        }

        @Override
        public String toString() {
            return out.toString();
        }
    }

    private BatchCycles() {
    }

    /**
     * Every simple cycle of a component (none for a single transaction), each once, starting at
     * its smallest node; null past the cap.
     */
    static List<List<Integer>> simpleCycles(Graph g, List<Integer> scc) {
        List<List<Integer>> out = new ArrayList<>();
        if (scc.size() < 2) {
            return out;
        }
        Set<Integer> members = new HashSet<>(scc);
        for (int start : new TreeSet<>(scc)) {
            List<Integer> path = new ArrayList<>();
            path.add(start);
            if (!extend(g, members, start, path, new HashSet<>(path), out)) {
                return null;
            }
        }
        return out;
    }

    private static boolean extend(Graph g, Set<Integer> members, int start, List<Integer> path,
                                  Set<Integer> onPath, List<List<Integer>> out) {
        int last = path.get(path.size() - 1);
        for (int next : g.successors(last)) {
            if (next == start) {
                if (out.size() >= MAX_CYCLES) {
                    return false;
                }
                out.add(List.copyOf(path));
            } else if (next > start && members.contains(next) && !onPath.contains(next)) {
                path.add(next);
                onPath.add(next);
                boolean within = extend(g, members, start, path, onPath, out);
                path.remove(path.size() - 1);
                onPath.remove(next);
                if (!within) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Tarjan's algorithm; components in no particular order. */
    static List<List<Integer>> components(Graph g) {
        Map<Integer, Integer> index = new HashMap<>();
        Map<Integer, Integer> low = new HashMap<>();
        List<Integer> stack = new ArrayList<>();
        Set<Integer> onStack = new HashSet<>();
        List<List<Integer>> out = new ArrayList<>();
        for (int v : g.out.keySet()) {
            if (!index.containsKey(v)) {
                strongConnect(g, v, index, low, stack, onStack, out);
            }
        }
        return out;
    }

    private static void strongConnect(Graph g, int v, Map<Integer, Integer> index, Map<Integer, Integer> low,
                                      List<Integer> stack, Set<Integer> onStack, List<List<Integer>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.add(v);
        onStack.add(v);
        for (int w : g.successors(v)) {
            if (!index.containsKey(w)) {
                strongConnect(g, w, index, low, stack, onStack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<Integer> scc = new ArrayList<>();
            int w;
            do {
                w = stack.remove(stack.size() - 1);
                onStack.remove(w);
                scc.add(w);
            } while (w != v);
            out.add(scc);
        }
    }
}
