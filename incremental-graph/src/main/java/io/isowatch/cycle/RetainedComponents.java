package io.isowatch.cycle;

import io.isowatch.collect.IntList;
import io.isowatch.graph.DependencyGraph;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The components an {@link IncrementalCycleIndex} holds once the nodes below a cut are
 * forgotten: the strongly connected components of the retained graph, in a topological order of
 * its condensation, with the tags they inherit.
 *
 * <p>Forgetting nodes only removes edges, so each new component lies inside one old component.
 * The old components are therefore taken in their old order, and each is split again over its
 * retained members and the edges among them ({@link InducedComponents}); its pieces take its
 * place, in a topological order of their own. An edge between two old components already agreed
 * with the old order, and one inside an old component agrees with its pieces' order, so the
 * result is a topological order without a search over the whole graph. A component whose cycles
 * all ran through forgotten nodes thereby falls apart, as it must. Each piece inherits the tags
 * of the old component it comes from.
 *
 * @param members the retained nodes by new id ({@code id - cut}), component after component in
 *                topological order, each component's members in increasing order
 * @param start   component {@code c} is {@code members[start[c]..start[c+1])}
 * @param tags    the inherited tags by component index, only those that are not zero
 */
record RetainedComponents(int[] members, int[] start, Map<Integer, Long> tags) {

    /**
     * Computes the components of {@code index} (whose first {@code nodes} nodes hold positions
     * below {@code positions}) after evicting the nodes below {@code cut}; {@code graph} has
     * already evicted them. Reads the index, changes nothing but its path compression. Cost:
     * O(nodes + positions + edges inside old components of two or more retained members).
     */
    static RetainedComponents after(IncrementalCycleIndex index, DependencyGraph graph, int nodes, int positions,
                                    int cut) {
        int[] members = new int[Math.max(0, nodes - cut)];
        IntList start = new IntList();
        Map<Integer, Long> tags = new HashMap<>();
        int[] localOf = null;
        int[] piece = null;
        int size = 0;
        for (int rep : oldComponentsInOrder(index, nodes, positions, cut)) {
            if (rep < 0) {
                continue;
            }
            int from = size;
            for (int m = rep; m >= 0; m = index.nextMember(m)) {
                if (m >= cut) {
                    members[size++] = m - cut;
                }
            }
            Arrays.sort(members, from, size);
            int first = start.size();
            if (size - from == 1) {
                start.add(from);
            } else {
                if (localOf == null) {
                    localOf = new int[members.length];
                    piece = new int[members.length];
                }
                split(graph, members, from, size, localOf, piece, start);
            }
            long bits = index.tags(rep);
            for (int c = first; bits != 0 && c < start.size(); c++) {
                tags.put(c, bits);
            }
        }
        start.add(size);
        return new RetainedComponents(members, start.toArray(), tags);
    }

    /**
     * The representatives of the old components that keep a member, indexed by position, -1
     * where none. Live representatives hold distinct positions below {@code positions}, so a
     * bucket per position orders them without a sort.
     */
    private static int[] oldComponentsInOrder(IncrementalCycleIndex index, int nodes, int positions, int cut) {
        int[] repAt = new int[positions];
        Arrays.fill(repAt, -1);
        for (int v = cut; v < nodes; v++) {
            int rep = index.component(v);
            int at = index.order(rep);
            if (repAt[at] >= 0 && repAt[at] != rep) {
                throw new IllegalStateException("components " + repAt[at] + " and " + rep + " share position " + at
                        + ": the cycle index was inconsistent before eviction");
            }
            repAt[at] = rep;
        }
        return repAt;
    }

    /**
     * Splits {@code members[from..to)} into its components, reorders it component by component
     * (a stable counting sort, so each keeps its members in increasing order) and adds where each
     * starts to {@code start}.
     */
    private static void split(DependencyGraph graph, int[] members, int from, int to, int[] localOf, int[] piece,
                              IntList start) {
        int pieces = InducedComponents.split(graph, members, from, to, localOf, piece);
        int count = to - from;
        int[] fill = new int[pieces];
        for (int i = 0; i < count; i++) {
            if (piece[i] + 1 < pieces) {
                fill[piece[i] + 1]++;
            }
        }
        for (int p = 1; p < pieces; p++) {
            fill[p] += fill[p - 1];
        }
        for (int p = 0; p < pieces; p++) {
            start.add(from + fill[p]);
        }
        if (pieces == 1) {
            return;
        }
        int[] byPiece = new int[count];
        for (int i = 0; i < count; i++) {
            byPiece[fill[piece[i]]++] = members[from + i];
        }
        System.arraycopy(byPiece, 0, members, from, count);
    }
}
