package io.isowatch.cycle;

import io.isowatch.collect.IntList;
import io.isowatch.collect.LongIntMap;
import io.isowatch.graph.DependencyGraph;
import io.isowatch.graph.Edges;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Keeps the strongly connected components of a growing graph and a topological order of their
 * condensation, so that each new edge is classified as harmless, or as one that closes cycles.
 *
 * <p>An edge that agrees with the order costs O(1). One that points backwards searches forward
 * from its target, among the components placed no later than its source. When that search does
 * not reach the source, the edge closes no cycle, and the range between the two ends is shifted
 * as Marchetti-Spaccamela, Nanni and Rohnert do: the reached components move after the source
 * ({@link #shiftReachedAfter}). When it does, the search backward from the source finds the
 * nodes on paths back to it, they become one component (union-find with member lists), and the
 * affected region is reordered as in Pearce and Kelly's dynamic topological sort ("A Dynamic
 * Topological Sort Algorithm for Directed Acyclic Graphs", JEA 2006). Either way the order stays
 * a topological order of the condensation, and the components are what they would be with any
 * other order. Cost per backward edge: the forward search plus the range's length, or for an
 * edge that closes a cycle, both searches.
 *
 * <p>Memory: a node costs its position, the inverse (the component at a position), union-find
 * parent and search mark (16 bytes) and a bit saying whether it shares its component; member
 * lists, sizes and tags exist only for components of more than one node, which an anomaly-free
 * history hardly has.
 *
 * <p>The caller adds each edge to the graph and then reports it here, one at a time: the searches
 * walk the graph, and an edge they meet before it is reported can leave the order wrong. Evicting
 * old nodes ({@link #evictBelow}) rebuilds the index for the graph that remains. Not thread-safe.
 */
public final class IncrementalCycleIndex {

    /** Returned by {@link #edgeAdded} when the edge closes no cycle. */
    public static final int NO_CYCLE = -1;

    private final DependencyGraph graph;

    private int[] ord = new int[1024];
    /**
     * The inverse of {@code ord}: the component at each position. Positions a merge left behind
     * hold a stale entry, a node whose {@code ord} is elsewhere or that no longer represents.
     */
    private int[] at = new int[1024];
    private int[] parent = new int[1024];
    private int[] mark = new int[1024];
    /** One bit per node: set once it is in a component of more than one node. */
    private long[] shared = new long[1024 / 64];
    /** For nodes in shared components: the next member (absent for the last). */
    private LongIntMap memberNext = new LongIntMap();
    /** For representatives of shared components: the last member and the size. */
    private LongIntMap memberTail = new LongIntMap();
    private LongIntMap componentSize = new LongIntMap();
    private Map<Integer, Long> tags = new HashMap<>();
    private int epoch;
    private int nodes;
    private int nextOrd;

    private IntList forward = new IntList();
    private IntList backward = new IntList();
    private IntList stack = new IntList();
    private final Edges edges = new Edges();

    public IncrementalCycleIndex(DependencyGraph graph) {
        this.graph = graph;
    }

    /** Registers nodes up to {@code node}, each placed after every node so far. */
    public void ensureNode(int node) {
        while (nodes <= node) {
            if (nodes == ord.length) {
                int cap = ord.length + (ord.length >> 1); // 1.5x: less slack than doubling at millions of nodes
                ord = Arrays.copyOf(ord, cap);
                at = Arrays.copyOf(at, cap);
                parent = Arrays.copyOf(parent, cap);
                mark = Arrays.copyOf(mark, cap);
                shared = Arrays.copyOf(shared, (cap + 63) >>> 6);
            }
            int n = nodes++;
            ord[n] = nextOrd;
            at[nextOrd++] = n;
            parent[n] = n;
        }
    }

    private boolean isShared(int node) {
        return (shared[node >>> 6] & (1L << node)) != 0;
    }

    /** The representative of the component holding {@code node}. */
    public int component(int node) {
        int root = node;
        while (parent[root] != root) {
            root = parent[root];
        }
        while (parent[node] != root) {
            int next = parent[node];
            parent[node] = root;
            node = next;
        }
        return root;
    }

    /** Number of transactions in the component whose representative is {@code rep}. */
    public int componentSize(int rep) {
        int root = component(rep);
        return isShared(root) ? componentSize.get(root) : 1;
    }

    /** The members of a component: start at the representative, follow {@link #nextMember}. */
    public int nextMember(int node) {
        if (!isShared(node)) {
            return -1;
        }
        int next = memberNext.get(node);
        return next == LongIntMap.MISSING ? -1 : next;
    }

    /**
     * Accounts for the edge {@code from -> to}, already in the graph. Returns the representative
     * of the component it lies in when that component is cyclic (the edge closed a new cycle or
     * lies inside a cyclic component), else {@link #NO_CYCLE}.
     */
    public int edgeAdded(int from, int to) {
        ensureNode(Math.max(from, to));
        int rf = component(from);
        int rt = component(to);
        if (rf == rt) {
            return isShared(rf) ? rf : NO_CYCLE;
        }
        if (ord[rf] < ord[rt]) {
            return NO_CYCLE;
        }
        int lower = ord[rt];
        int upper = ord[rf];
        int forwardMark = ++epoch;
        boolean cycle = searchForward(rt, upper, forwardMark, rf);
        if (!cycle) {
            shiftReachedAfter(lower, upper, forwardMark);
            return NO_CYCLE;
        }
        int backwardMark = ++epoch;
        searchBackward(rf, lower, backwardMark);
        int merged = mergeOnPaths(forwardMark, backwardMark);
        reorder(merged);
        return merged;
    }

    private boolean searchForward(int start, int upper, int visitMark, int goal) {
        forward.clear();
        stack.clear();
        stack.add(start);
        mark[start] = visitMark;
        boolean reached = false;
        while (!stack.isEmpty()) {
            int rep = stack.get(stack.size() - 1);
            stack.swapRemove(stack.size() - 1);
            forward.add(rep);
            if (rep == goal) {
                reached = true;
                continue;
            }
            for (int m = rep; m >= 0; m = nextMember(m)) {
                graph.outEdgesInAnyOrder(m, edges);
                for (int i = 0; i < edges.size(); i++) {
                    int t = component(edges.node(i));
                    if (mark[t] != visitMark && ord[t] <= upper) {
                        mark[t] = visitMark;
                        stack.add(t);
                    }
                }
            }
        }
        return reached;
    }

    private void searchBackward(int start, int lower, int visitMark) {
        backward.clear();
        stack.clear();
        stack.add(start);
        int forwardMark = visitMark - 1;
        boolean startInForward = mark[start] == forwardMark;
        // A node seen by both searches carries the backward mark; remember forward membership first.
        if (!startInForward) {
            mark[start] = visitMark;
        } else {
            mark[start] = -visitMark;
        }
        while (!stack.isEmpty()) {
            int rep = stack.get(stack.size() - 1);
            stack.swapRemove(stack.size() - 1);
            backward.add(rep);
            for (int m = rep; m >= 0; m = nextMember(m)) {
                graph.inEdges(m, edges);
                for (int i = 0; i < edges.size(); i++) {
                    int s = component(edges.node(i));
                    int mk = mark[s];
                    if (mk == visitMark || mk == -visitMark || ord[s] < lower) {
                        continue;
                    }
                    mark[s] = mk == forwardMark ? -visitMark : visitMark;
                    stack.add(s);
                }
            }
        }
    }

    /**
     * Restores the order after a backward edge that closed no cycle, as Marchetti-Spaccamela,
     * Nanni and Rohnert do ("Maintaining a topological order under edge insertions", IPL 1996):
     * of the components placed from {@code lower} to {@code upper}, those the forward search did
     * not reach keep their order and move to the front, the source (at {@code upper}) among
     * them, and the reached ones follow, in their order. Nothing reached has an edge to an
     * unreached component in the range (the search would have reached it), so the order stays
     * topological. It costs the range's length without walking a single edge, where Pearce and
     * Kelly's backward search walks every in-edge of every component that reaches the source:
     * with realtime predecessors decoded on the way, that was most of this index's time.
     */
    private void shiftReachedAfter(int lower, int upper, int reachedMark) {
        stack.clear();
        int free = lower;
        for (int p = lower; p <= upper; p++) {
            int rep = at[p];
            if (rep < 0 || parent[rep] != rep || ord[rep] != p) {
                continue; // a slot a merge gave up
            }
            if (mark[rep] == reachedMark) {
                stack.add(rep);
            } else {
                place(rep, free++);
            }
        }
        for (int i = 0; i < stack.size(); i++) {
            place(stack.get(i), free++);
        }
        for (int p = free; p <= upper; p++) {
            at[p] = -1;
        }
    }

    private void place(int rep, int position) {
        ord[rep] = position;
        at[position] = rep;
    }

    /** Merges the components seen by both searches (they lie on paths closing the cycle). */
    private int mergeOnPaths(int forwardMark, int backwardMark) {
        int merged = -1;
        for (int i = 0; i < backward.size(); i++) {
            int rep = backward.get(i);
            if (mark[rep] != -backwardMark) {
                continue;
            }
            if (merged < 0) {
                merged = rep;
            } else {
                merged = union(merged, rep);
            }
        }
        return merged;
    }

    private int union(int a, int b) {
        if (componentSize(a) < componentSize(b)) {
            int t = a;
            a = b;
            b = t;
        }
        int size = componentSize(a) + componentSize(b);
        int tailA = isShared(a) ? memberTail.get(a) : a;
        int tailB = isShared(b) ? memberTail.get(b) : b;
        parent[b] = a;
        shared[a >>> 6] |= 1L << a;
        shared[b >>> 6] |= 1L << b;
        memberNext.put(tailA, b);
        memberTail.put(a, tailB);
        componentSize.put(a, size);
        Long tagsOfB = tags.remove(b);
        if (tagsOfB != null) {
            tags.merge(a, tagsOfB, (x, y) -> x | y);
        }
        ord[a] = Math.min(ord[a], ord[b]);
        return a;
    }

    /**
     * Pearce–Kelly reordering after a merge: the backward set (minus the merged component)
     * first, then the merged component, then the forward set, in the slots the affected nodes
     * held before; the merged component reuses the smallest slot its parts held.
     */
    private void reorder(int merged) {
        IntList slots = new IntList(forward.size() + backward.size() + 1);
        IntList sequence = new IntList(forward.size() + backward.size() + 1);
        appendSorted(backward, merged, sequence, slots);
        sequence.add(merged);
        slots.add(ord[merged]);
        appendSorted(forward, merged, sequence, slots);
        int[] pool = slots.toArray();
        Arrays.sort(pool);
        for (int i = 0; i < sequence.size(); i++) {
            place(sequence.get(i), pool[i]);
        }
    }

    private void appendSorted(IntList reps, int merged, IntList sequence, IntList slots) {
        // Sort live representatives by their position without boxing: (ord, rep) packed in a long.
        long[] packed = new long[reps.size()];
        int n = 0;
        for (int i = 0; i < reps.size(); i++) {
            int r = reps.get(i);
            if (parent[r] == r && r != merged) {
                packed[n++] = ((long) ord[r] << 32) | (r & 0xFFFFFFFFL);
            }
        }
        Arrays.sort(packed, 0, n);
        for (int i = 0; i < n; i++) {
            int r = (int) packed[i];
            sequence.add(r);
            slots.add(ord[r]);
        }
    }

    /**
     * Bits the caller keeps per component (the checker: which anomaly types were found in it).
     * Merging components unites their bits.
     */
    public long tags(int node) {
        // Most histories tag no component: answer without boxing a key for each node asked.
        return tags.isEmpty() ? 0L : tags.getOrDefault(component(node), 0L);
    }

    /** Adds {@code bits} to the tags of {@code node}'s component. */
    public void addTags(int node, long bits) {
        tags.merge(component(node), bits, (x, y) -> x | y);
    }

    // ---- eviction ----

    /**
     * Forgets the nodes below {@code cut} and renumbers every other node to {@code id - cut},
     * after the graph has done the same: it then holds only edges between retained nodes, each
     * of which it held, and reported here, before.
     *
     * <p>Afterwards the components are exactly the strongly connected components of the retained
     * graph ({@link RetainedComponents}), in a topological order of its condensation, so
     * {@link #edgeAdded} goes on as it would on an index fed only the retained edges. A
     * component's representative is its smallest member, and its members are listed in
     * increasing order. Tags are carried to the component of every retained member, singletons
     * included: each new component gets the tags of the old component it lies in. Tags only
     * suppress (a shape already found is not searched for again, a timeout is not reported
     * twice), so carrying them may lose a finding, never invent one.
     *
     * <p>Cost: linear in the retained nodes, the edges inside old components and the positions
     * handed out since the last eviction. Every array and map is rebuilt at the retained size, so
     * what the forgotten nodes held becomes garbage.
     *
     * @throws IllegalArgumentException if {@code cut} is negative
     */
    public void evictBelow(int cut) {
        if (cut < 0) {
            throw new IllegalArgumentException("cannot evict below a negative id: " + cut);
        }
        if (cut == 0) {
            return;
        }
        RetainedComponents kept = RetainedComponents.after(this, graph, nodes, nextOrd, cut);
        reset(kept.members().length);
        int[] start = kept.start();
        Map<Integer, Long> carried = kept.tags();
        for (int c = 0; c + 1 < start.length; c++) {
            install(kept.members(), start[c], start[c + 1], carried.isEmpty() ? 0L : carried.getOrDefault(c, 0L));
        }
    }

    /** Empties the index for {@code kept} nodes, dropping every array and map sized for more. */
    private void reset(int kept) {
        int cap = Math.max(1024, kept + (kept >> 1)); // the slack ensureNode would have grown
        ord = new int[cap];
        at = new int[cap];
        parent = new int[cap];
        mark = new int[cap];
        shared = new long[(cap + 63) >>> 6];
        memberNext = new LongIntMap();
        memberTail = new LongIntMap();
        componentSize = new LongIntMap();
        tags = new HashMap<>();
        forward = new IntList();
        backward = new IntList();
        stack = new IntList();
        epoch = 0;
        nodes = kept;
        nextOrd = 0;
    }

    /**
     * Installs {@code members[from..to)}, in increasing order, as one component placed after
     * every component so far; the smallest member represents it.
     */
    private void install(int[] members, int from, int to, long carried) {
        int rep = members[from];
        int position = nextOrd++;
        for (int i = from; i < to; i++) {
            int m = members[i];
            parent[m] = rep;
            ord[m] = position;
        }
        at[position] = rep;
        if (to - from > 1) {
            for (int i = from; i < to; i++) {
                int m = members[i];
                shared[m >>> 6] |= 1L << m;
                if (i + 1 < to) {
                    memberNext.put(m, members[i + 1]);
                }
            }
            memberTail.put(rep, members[to - 1]);
            componentSize.put(rep, to - from);
        }
        if (carried != 0) {
            tags.put(rep, carried);
        }
    }

    /** The position of a component in the topological order (for eviction and tests). */
    int order(int node) {
        return ord[component(node)];
    }
}
