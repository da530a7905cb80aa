package io.isowatch.cycle;

import io.isowatch.collect.IntList;
import io.isowatch.collect.LongIntMap;
import io.isowatch.graph.DependencyGraph;
import io.isowatch.graph.EdgeKind;
import io.isowatch.graph.Edges;

import java.util.Arrays;

/**
 * Finds a cycle of a given {@link CycleSpec} through one edge, inside one strongly connected
 * component.
 *
 * <p>A new cycle must use the edge that created it, so the search looks for a path from the
 * edge's target back to its source whose steps, together with the edge, satisfy the spec. It
 * first runs a breadth-first search over (transaction, constraint state) pairs, which decides in
 * polynomial time whether any closed walk of that shape exists: if none does, no cycle does
 * either. A walk that repeats a transaction is not yet a cycle, so then a depth-first search over
 * simple paths, by increasing length, looks for a true one. Both share a budget of edge visits,
 * and optionally a wall-clock limit ({@link #timeLimit}, Elle's {@code :cycle-search-timeout});
 * running out of either yields {@link Outcome#OUT_OF_BUDGET}, which the checker reports as
 * unknown, never as valid.
 *
 * <p>Step kinds are the kinds Elle would explain each pair by ({@link DependencyGraph#pairKind}).
 * Not thread-safe; one instance serves one checker.
 */
public final class CycleSearch {

    /** How a search ended. */
    public enum Outcome { FOUND, NONE, OUT_OF_BUDGET }

    /**
     * A search result. For {@link Outcome#FOUND}, {@code nodes[0]} is the edge's source,
     * {@code nodes[1]} its target, and {@code kinds[i]} explains {@code nodes[i] -> nodes[i+1]}
     * (wrapping round to {@code nodes[0]}).
     */
    public record Result(Outcome outcome, int[] nodes, EdgeKind[] kinds) {
        static final Result NONE = new Result(Outcome.NONE, new int[0], new EdgeKind[0]);
        static final Result OUT_OF_BUDGET = new Result(Outcome.OUT_OF_BUDGET, new int[0], new EdgeKind[0]);
    }

    private static final EdgeKind[] KINDS = EdgeKind.values();
    private static final int RW = EdgeKind.RW.ordinal();

    private final DependencyGraph graph;
    private final IncrementalCycleIndex index;

    /** The focused component's members by id: their index in {@link #members}. */
    private LongIntMap local = new LongIntMap();
    /** One transaction's out-edges; every walk copies what it needs before it descends. */
    private final Edges edges = new Edges();
    private int[] members = new int[16];
    private int memberCount;
    private int[] stamp = new int[16];
    private int[] bestKind = new int[16];
    private int[] kindMask = new int[16];
    private int stampEpoch;
    private long budgetLeft;
    private long timeLimitNanos;
    private long deadline;

    public CycleSearch(DependencyGraph graph, IncrementalCycleIndex index) {
        this.graph = graph;
        this.index = index;
    }

    /** Limits each search to {@code nanos} of wall-clock time as well as its budget; 0 for no limit. */
    public void timeLimit(long nanos) {
        timeLimitNanos = nanos;
    }

    /**
     * Spends one edge visit. The clock is read once every 4096 visits, so a time limit costs
     * nothing measurable and overshoots by a few microseconds at most.
     */
    private boolean exhausted() {
        return --budgetLeft < 0
                || timeLimitNanos > 0 && (budgetLeft & 0xFFF) == 0 && System.nanoTime() - deadline > 0;
    }

    /**
     * Prepares a search inside the component of {@code rep}. Cost: the component's size.
     * Call before {@link #find} for each new edge; several specs may then be searched.
     */
    public void focus(int rep) {
        local.clear();
        memberCount = 0;
        for (int m = index.component(rep); m >= 0; m = index.nextMember(m)) {
            if (memberCount == members.length) {
                members = Arrays.copyOf(members, memberCount * 2);
            }
            local.put(m, memberCount);
            members[memberCount++] = m;
        }
        if (stamp.length < memberCount) {
            stamp = new int[memberCount * 2];
            bestKind = new int[memberCount * 2];
            kindMask = new int[memberCount * 2];
            stampEpoch = 0;
        }
    }

    /**
     * Forgets the focused component, whose ids the eviction of the transactions below
     * {@code cut} changes (every id is kept only by that focus), and frees the scratch a large
     * component grew. Call {@link #focus} again before the next {@link #find}; until then a find
     * finds nothing. The index and the graph evict on their own.
     */
    public void evictBelow(int cut) {
        local = new LongIntMap();
        members = new int[16];
        memberCount = 0;
        stamp = new int[16];
        bestKind = new int[16];
        kindMask = new int[16];
        stampEpoch = 0;
    }

    /**
     * Searches the focused component for a cycle of {@code spec} that uses the step
     * {@code from -> to}, visiting at most {@code budget} edges.
     */
    public Result find(CycleSpec spec, int from, int to, long budget) {
        return find(spec, from, to, budget, false);
    }

    /**
     * As {@link #find(CycleSpec, int, int, long)}; with {@code anyKind}, a step may follow any
     * relationship joining the pair, not only the one that explains it, as Elle's search walks
     * (the caller then classifies the cycle by how each step is explained). {@code kinds} in the
     * result are the relationships walked.
     */
    public Result find(CycleSpec spec, int from, int to, long budget, boolean anyKind) {
        EdgeKind explained = graph.pairKind(from, to);
        if (explained == null || local.get(from) == LongIntMap.MISSING || local.get(to) == LongIntMap.MISSING) {
            return Result.NONE;
        }
        budgetLeft = budget;
        deadline = System.nanoTime() + timeLimitNanos;
        int firstKinds = anyKind ? kindsBetween(from, to) : explained.bit();
        for (int k = 0; k < KINDS.length; k++) {
            if ((firstKinds & (1 << k)) == 0) {
                continue;
            }
            int start = step(spec, 0, k);
            if (start < 0) {
                continue;
            }
            boolean firstRw = k == RW;
            Result walk = breadthFirst(spec, from, to, start, firstRw, KINDS[k], anyKind);
            if (walk.outcome() == Outcome.FOUND && !isSimple(walk.nodes())) {
                walk = depthFirst(spec, from, to, start, firstRw, KINDS[k], anyKind);
            }
            if (walk.outcome() != Outcome.NONE) {
                return walk;
            }
        }
        return Result.NONE;
    }

    private int kindsBetween(int from, int to) {
        int mask = 0;
        graph.outEdgesInAnyOrder(from, edges);
        for (int i = 0; i < edges.size(); i++) {
            if (edges.node(i) == to) {
                mask |= 1 << edges.kind(i);
            }
        }
        return mask;
    }

    // ---- constraint state: rw count (0..2), last step rw, adjacent rw seen, required kinds seen ----

    private static int rwCount(int s) {
        return s & 3;
    }

    private static boolean lastRw(int s) {
        return (s & 4) != 0;
    }

    private static boolean adjacent(int s) {
        return (s & 8) != 0;
    }

    private static int seen(int s) {
        return s >>> 4;
    }

    /** The state after a step of {@code kind}, or -1 when the spec forbids it. */
    static int step(CycleSpec spec, int state, int kind) {
        if ((spec.allowed() & (1 << kind)) == 0) {
            return -1;
        }
        boolean rw = kind == RW;
        int count = rwCount(state);
        boolean adj = adjacent(state);
        if (rw) {
            switch (spec.rwRule()) {
                case NONE -> {
                    return -1;
                }
                case EXACTLY_ONE -> {
                    if (count >= 1) {
                        return -1;
                    }
                }
                case SEVERAL_NONADJACENT -> {
                    if (lastRw(state)) {
                        return -1;
                    }
                }
                default -> { }
            }
            count = Math.min(2, count + 1);
            adj |= lastRw(state);
        }
        int seen = seen(state) | ((1 << kind) & spec.required());
        return count | (rw ? 4 : 0) | (adj ? 8 : 0) | (seen << 4);
    }

    /** True when a cycle ending in {@code state} (its last step just taken) satisfies the spec. */
    static boolean accepts(CycleSpec spec, int state, boolean firstRw) {
        if ((seen(state) & spec.required()) != spec.required()) {
            return false;
        }
        boolean wrapAdjacent = lastRw(state) && firstRw;
        int count = rwCount(state);
        return switch (spec.rwRule()) {
            case NONE -> count == 0;
            case EXACTLY_ONE -> count == 1;
            case SEVERAL_NONADJACENT -> count == 2 && !adjacent(state) && !wrapAdjacent;
            case SEVERAL_ADJACENT -> count == 2 && (adjacent(state) || wrapAdjacent);
        };
    }

    /**
     * Fills {@link #edges} with {@code node}'s out-edges, newest first, and {@link #bestKind} for
     * their targets in the component; returns the stamp used.
     */
    private int scanTargets(int node) {
        int s = ++stampEpoch;
        if (s == Integer.MAX_VALUE) {
            Arrays.fill(stamp, 0);
            stampEpoch = 1;
            s = 1;
        }
        graph.outEdges(node, edges);
        for (int i = 0; i < edges.size(); i++) {
            int li = local.get(edges.node(i));
            if (li == LongIntMap.MISSING) {
                continue;
            }
            int k = edges.kind(i);
            if (stamp[li] != s) {
                stamp[li] = s;
                bestKind[li] = k;
                kindMask[li] = 1 << k;
            } else {
                kindMask[li] |= 1 << k;
                if (graph.explanationRank(KINDS[k]) < graph.explanationRank(KINDS[bestKind[li]])) {
                    bestKind[li] = k;
                }
            }
        }
        return s;
    }

    private Result breadthFirst(CycleSpec spec, int from, int to, int startState, boolean firstRw,
                                EdgeKind first, boolean anyKind) {
        IntList qNode = new IntList();
        IntList qState = new IntList();
        IntList qParent = new IntList();
        IntList qKind = new IntList();
        LongIntMap visited = new LongIntMap();
        qNode.add(to);
        qState.add(startState);
        qParent.add(-1);
        qKind.add(first.ordinal());
        visited.put(((long) local.get(to) << 10) | startState, 0);
        for (int head = 0; head < qNode.size(); head++) {
            int node = qNode.get(head);
            int state = qState.get(head);
            int s = scanTargets(node);
            for (int i = 0; i < edges.size(); i++) {
                if (exhausted()) {
                    return Result.OUT_OF_BUDGET;
                }
                int t = edges.node(i);
                int li = local.get(t);
                if (li == LongIntMap.MISSING || stamp[li] != s) {
                    continue;
                }
                int kinds = anyKind ? kindMask[li] : 1 << bestKind[li];
                stamp[li] = -1; // each target once per expansion
                for (int k = 0; k < KINDS.length; k++) {
                    if ((kinds & (1 << k)) == 0) {
                        continue;
                    }
                    int next = step(spec, state, k);
                    if (next < 0) {
                        continue;
                    }
                    if (t == from) {
                        if (accepts(spec, next, firstRw)) {
                            return rebuild(from, head, k, qNode, qParent, qKind);
                        }
                        continue;
                    }
                    if (t == to) {
                        continue;
                    }
                    long key = ((long) li << 10) | next;
                    if (visited.containsKey(key)) {
                        continue;
                    }
                    visited.put(key, qNode.size());
                    qNode.add(t);
                    qState.add(next);
                    qParent.add(head);
                    qKind.add(k);
                }
            }
        }
        return Result.NONE;
    }

    private static Result rebuild(int from, int last, int closingKind, IntList qNode, IntList qParent,
                                  IntList qKind) {
        IntList nodes = new IntList();
        IntList kinds = new IntList();
        kinds.add(closingKind);
        for (int i = last; i >= 0; i = qParent.get(i)) {
            nodes.add(qNode.get(i));
            kinds.add(qKind.get(i));
        }
        nodes.add(from);
        // nodes: [last, ..., to, from] reversed below; kinds: [closing, ..., first] likewise.
        int n = nodes.size();
        int[] cycle = new int[n];
        EdgeKind[] steps = new EdgeKind[n];
        for (int i = 0; i < n; i++) {
            cycle[i] = nodes.get(n - 1 - i);
            steps[i] = KINDS[kinds.get(n - 1 - i)];
        }
        return new Result(Outcome.FOUND, cycle, steps);
    }

    private static boolean isSimple(int[] nodes) {
        int[] sorted = nodes.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                return false;
            }
        }
        return true;
    }

    // ---- depth-first search over simple paths, by increasing length ----

    private Result depthFirst(CycleSpec spec, int from, int to, int startState, boolean firstRw, EdgeKind first,
                              boolean anyKind) {
        boolean[] onPath = new boolean[memberCount];
        onPath[local.get(from)] = true;
        onPath[local.get(to)] = true;
        int[] path = new int[memberCount + 1];
        int[] kinds = new int[memberCount + 1];
        path[0] = from;
        path[1] = to;
        kinds[0] = first.ordinal();
        for (int length = 2; length <= memberCount; length++) {
            int found = extend(spec, from, to, startState, firstRw, 1, length, onPath, path, kinds, anyKind);
            if (found > 0) {
                int[] cycle = Arrays.copyOf(path, found);
                EdgeKind[] steps = new EdgeKind[found];
                for (int i = 0; i < found; i++) {
                    steps[i] = KINDS[kinds[i]];
                }
                return new Result(Outcome.FOUND, cycle, steps);
            }
            if (found < 0) {
                return Result.OUT_OF_BUDGET;
            }
        }
        return Result.NONE;
    }

    /** Returns the cycle length when found, 0 when not, -1 when out of budget. */
    private int extend(CycleSpec spec, int from, int to, int state, boolean firstRw, int depth, int length,
                       boolean[] onPath, int[] path, int[] kinds, boolean anyKind) {
        int node = path[depth];
        int s = scanTargets(node);
        int[] targets = new int[16];
        int[] targetKinds = new int[16];
        int n = 0;
        for (int x = 0; x < edges.size(); x++) {
            int li = local.get(edges.node(x));
            if (li == LongIntMap.MISSING || stamp[li] != s) {
                continue;
            }
            stamp[li] = -1;
            int pairKinds = anyKind ? kindMask[li] : 1 << bestKind[li];
            for (int k = 0; k < KINDS.length; k++) {
                if ((pairKinds & (1 << k)) == 0) {
                    continue;
                }
                if (n == targets.length) {
                    targets = Arrays.copyOf(targets, n * 2);
                    targetKinds = Arrays.copyOf(targetKinds, n * 2);
                }
                targets[n] = edges.node(x);
                targetKinds[n++] = k;
            }
        }
        for (int i = 0; i < n; i++) {
            if (exhausted()) {
                return -1;
            }
            int t = targets[i];
            int next = step(spec, state, targetKinds[i]);
            if (next < 0) {
                continue;
            }
            if (t == from) {
                if (depth + 1 == length && accepts(spec, next, firstRw)) {
                    kinds[depth] = targetKinds[i];
                    return depth + 1;
                }
                continue;
            }
            int li = local.get(t);
            if (onPath[li] || depth + 1 >= length) {
                continue;
            }
            onPath[li] = true;
            path[depth + 1] = t;
            kinds[depth] = targetKinds[i];
            int found = extend(spec, from, to, next, firstRw, depth + 1, length, onPath, path, kinds, anyKind);
            onPath[li] = false;
            if (found != 0) {
                return found;
            }
        }
        return 0;
    }
}
