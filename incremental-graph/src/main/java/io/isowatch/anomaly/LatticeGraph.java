package io.isowatch.anomaly;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A small immutable directed acyclic graph of names, for the model and anomaly lattices.
 *
 * <p>The lattices hold fewer than a hundred vertices, so every query is a plain breadth-first
 * search, linear in the vertices and edges it reaches. Names that are not vertices are treated as
 * isolated vertices: they reach only themselves, as Elle's searches do.
 */
final class LatticeGraph {

    private final Map<String, Set<String>> out;
    private final Map<String, Set<String>> in;

    private LatticeGraph(Map<String, Set<String>> out, Map<String, Set<String>> in) {
        this.out = out;
        this.in = in;
        if (depths().size() != vertices().size()) {
            throw new IllegalStateException(LatticeMessages.cyclicLattice(out.keySet()));
        }
    }

    /**
     * Builds a graph from rows of successors, renaming every vertex first; rows whose names
     * coincide after renaming merge their edges.
     *
     * @throws IllegalStateException when the edges form a cycle or renaming makes a self-edge
     */
    static LatticeGraph of(Map<String, List<String>> rows, UnaryOperator<String> rename) {
        Map<String, Set<String>> out = new HashMap<>();
        Map<String, Set<String>> in = new HashMap<>();
        rows.forEach((from, tos) -> {
            for (String to : tos) {
                link(out, in, rename.apply(from), rename.apply(to));
            }
        });
        return new LatticeGraph(freeze(out), freeze(in));
    }

    /** The union of two graphs' vertices and edges. */
    LatticeGraph union(LatticeGraph other) {
        Map<String, Set<String>> out = new HashMap<>();
        Map<String, Set<String>> in = new HashMap<>();
        for (LatticeGraph g : List.of(this, other)) {
            g.out.forEach((from, tos) -> {
                out.computeIfAbsent(from, k -> new HashSet<>());
                in.computeIfAbsent(from, k -> new HashSet<>());
                tos.forEach(to -> link(out, in, from, to));
            });
        }
        return new LatticeGraph(freeze(out), freeze(in));
    }

    Set<String> vertices() {
        return out.keySet();
    }

    /** The given names plus everything reachable from them along edges. */
    Set<String> downstream(Collection<String> starts) {
        return search(starts, v -> out.getOrDefault(v, Set.of()));
    }

    /** The given names plus everything that reaches them along edges. */
    Set<String> upstream(Collection<String> starts) {
        return search(starts, v -> in.getOrDefault(v, Set.of()));
    }

    /**
     * Each vertex's topological depth: 0 for vertices nothing points to, otherwise one more than
     * the deepest predecessor (the longest path from a source). A vertex on a cycle gets no depth.
     */
    Map<String, Integer> depths() {
        Map<String, Integer> pending = new HashMap<>();
        Deque<String> ready = new ArrayDeque<>();
        Map<String, Integer> depth = new HashMap<>();
        for (String v : vertices()) {
            pending.put(v, in.get(v).size());
            if (in.get(v).isEmpty()) {
                ready.add(v);
                depth.put(v, 0);
            }
        }
        while (!ready.isEmpty()) {
            String v = ready.remove();
            for (String next : out.get(v)) {
                depth.merge(next, depth.get(v) + 1, Math::max);
                if (pending.merge(next, -1, Integer::sum) == 0) {
                    ready.add(next);
                }
            }
        }
        depth.keySet().retainAll(reachedAll(pending));
        return Map.copyOf(depth);
    }

    private static Set<String> reachedAll(Map<String, Integer> pending) {
        Set<String> done = new HashSet<>();
        pending.forEach((v, n) -> {
            if (n == 0) {
                done.add(v);
            }
        });
        return done;
    }

    private static Set<String> search(Collection<String> starts, Function<String, Set<String>> next) {
        Set<String> seen = new HashSet<>(starts);
        Deque<String> queue = new ArrayDeque<>(seen);
        while (!queue.isEmpty()) {
            for (String n : next.apply(queue.remove())) {
                if (seen.add(n)) {
                    queue.add(n);
                }
            }
        }
        return seen;
    }

    private static void link(Map<String, Set<String>> out, Map<String, Set<String>> in,
                             String from, String to) {
        if (from.equals(to)) {
            throw new IllegalStateException(LatticeMessages.cyclicLattice(List.of(from)));
        }
        out.computeIfAbsent(from, k -> new HashSet<>()).add(to);
        out.computeIfAbsent(to, k -> new HashSet<>());
        in.computeIfAbsent(to, k -> new HashSet<>()).add(from);
        in.computeIfAbsent(from, k -> new HashSet<>());
    }

    private static Map<String, Set<String>> freeze(Map<String, Set<String>> m) {
        Map<String, Set<String>> copy = new HashMap<>();
        m.forEach((k, v) -> copy.put(k, Set.copyOf(v)));
        return Map.copyOf(copy);
    }
}
