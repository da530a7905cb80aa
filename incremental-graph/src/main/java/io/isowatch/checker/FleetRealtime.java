package io.isowatch.checker;

import io.isowatch.collect.IntList;
import io.isowatch.graph.EdgeKind;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The realtime order of a history recorded by several agents whose clocks disagree by up to
 * {@code ε} (decision 0021): {@code T1 -> T2} when both ran on one agent and T1's ok completion
 * precedes T2's invocation in that agent's order (Elle's rule), or when they ran on different
 * agents and T1's ok completion time plus {@code ε} is before T2's invocation time, strictly.
 *
 * <p>It generalises Elle's realtime-graph buffer (committed transactions not yet followed by a
 * committed one, the transitive reduction): each agent has its current buffer, for its own
 * transactions' predecessors, and a lagged buffer, the same buffer as it stood {@code ε} ago,
 * which other agents' transactions see. A committed completion changes its agent's current buffer
 * at once and its lagged buffer once the merged time has passed the completion time by more than
 * {@code ε}. A transaction's snapshot at invocation is its own agent's current buffer and every
 * other agent's lagged buffer; its edges are linked at its completion, as {@link SessionOrder}
 * links Elle's. Each edge linked satisfies the rule; every pair the rule relates is joined by a
 * path of linked edges (a transaction left a lagged buffer only for a committed successor on its
 * agent that entered that buffer no later), so the transitive closure is the rule's.
 *
 * <p>Times are the agent's merge times ({@code io.isowatch.history.AgentMerge#mergeTime}): its
 * running maximum, the only reading consistent with its own exact order. Events must come in
 * the merge order, in which merge times never decrease. Should one come whose merge time is
 * below the history's merged time so far (a feed not in that order), it is still judged soundly,
 * by losing edges: its invocation sees only its own agent's buffer, its completion counts as at
 * the merged time. Edges are stored in the graph like any other (the implicit
 * {@code RealtimeEdges} assumes one realtime order of ids, which a fleet does not have).
 *
 * <p>Cost per event: O(agents + snapshot), the snapshot being about the fleet's concurrency;
 * memory: the buffers, the pending snapshots and the completions of the last {@code ε}.
 */
final class FleetRealtime {

    /** A committed completion not yet applied to its agent's lagged buffer. */
    private record Lag(int agent, int txn, long time, int[] ownPredecessors) {
    }

    /** A pending transaction's snapshot: {@code own} of {@code sources} come from its own agent's buffer. */
    private record Snapshot(int[] sources, int own) {
    }

    private static final int[] NONE = new int[0];

    private final long epsilon;
    private final List<IntList> current = new ArrayList<>();
    private final List<IntList> lagged = new ArrayList<>();
    private long[] clock = new long[0];
    private long now = Long.MIN_VALUE;
    private final Map<Integer, Snapshot> pending = new HashMap<>();
    private final ArrayDeque<Lag> lags = new ArrayDeque<>();
    /** The agent of each transaction, by id. */
    private int[] agentOf = new int[64];
    private boolean linkedToFailed;

    /** @param epsilonNanos the clock uncertainty, in nanoseconds, >= 0 */
    FleetRealtime(long epsilonNanos) {
        if (epsilonNanos < 0) {
            throw new IllegalArgumentException("clock uncertainty must be >= 0, got " + epsilonNanos + " ns");
        }
        this.epsilon = epsilonNanos;
    }

    /** The agent that recorded {@code txn}. */
    int agentOf(int txn) {
        return agentOf[txn];
    }

    /** The clock uncertainty, in nanoseconds. */
    long epsilonNanos() {
        return epsilon;
    }

    /** {@code txn} was invoked on {@code agent} at {@code time}: takes its snapshot. */
    void invoked(int txn, int agent, long time) {
        boolean inOrder = advance(agent, time);
        remember(txn, agent);
        IntList own = current.get(agent);
        int size = own.size();
        if (inOrder) {
            for (int a = 0; a < lagged.size(); a++) {
                size += a == agent ? 0 : lagged.get(a).size();
            }
        }
        int[] sources = new int[size];
        int n = 0;
        for (int i = 0; i < own.size(); i++) {
            sources[n++] = own.get(i);
        }
        for (int a = 0; inOrder && a < lagged.size(); a++) {
            IntList other = lagged.get(a);
            for (int i = 0; a != agent && i < other.size(); i++) {
                sources[n++] = other.get(i);
            }
        }
        pending.put(txn, new Snapshot(sources, own.size()));
    }

    /**
     * {@code txn}'s completion came without its invocation: nothing is known to precede it in
     * real time, as in Elle. Its time still moves its agent's clock.
     */
    void invokedAtUnknownTime(int txn, int agent, long time) {
        advance(agent, time);
        remember(txn, agent);
        pending.put(txn, new Snapshot(NONE, 0));
    }

    /** {@code txn} completed at {@code time} with {@code outcome} (a {@link TxnTable} status): links its snapshot. */
    void completed(int txn, long time, byte outcome, SessionOrder.Links out) {
        int agent = agentOf[txn];
        advance(agent, time);
        Snapshot s = pending.remove(txn);
        if (outcome != TxnTable.FAIL) {
            for (int from : s.sources) {
                out.link(from, txn, EdgeKind.REALTIME);
            }
        } else if (s.sources.length > 0) {
            linkedToFailed = true; // as SessionOrder: Elle's graph has such an edge, isowatch keeps none
        }
        if (outcome == TxnTable.OK) {
            int[] own = Arrays.copyOf(s.sources, s.own);
            replace(current.get(agent), own, txn);
            // Not before the merged time: a completion seen late counts as late, which only delays it.
            lags.addLast(new Lag(agent, txn, Math.max(clock[agent], now), own));
        }
    }

    /** Whether Elle's graph would hold a realtime edge into a failed transaction. */
    boolean linkedToFailed() {
        return linkedToFailed;
    }

    /**
     * Moves {@code agent}'s clock and the merged time to {@code time} and applies to the lagged
     * buffers every completion now more than {@code ε} in the past. Returns false when the event's
     * merge time is below the merged time (out of merge order).
     */
    private boolean advance(int agent, long time) {
        ensureAgent(agent);
        long t = Math.max(clock[agent], time);
        clock[agent] = t;
        boolean inOrder = t >= now;
        now = Math.max(now, t);
        while (!lags.isEmpty() && now - lags.peekFirst().time > epsilon) {
            Lag lag = lags.pollFirst();
            replace(lagged.get(lag.agent), lag.ownPredecessors, lag.txn);
        }
        return inOrder;
    }

    /** Elle's buffer step: a committed {@code txn} replaces its predecessors. */
    private static void replace(IntList buffer, int[] predecessors, int txn) {
        for (int p : predecessors) {
            for (int i = 0; i < buffer.size(); i++) {
                if (buffer.get(i) == p) {
                    buffer.swapRemove(i);
                    break;
                }
            }
        }
        buffer.add(txn);
    }

    private void ensureAgent(int agent) {
        if (agent < 0) {
            throw new IllegalArgumentException("agent ordinal must be >= 0, got " + agent);
        }
        while (current.size() <= agent) {
            current.add(new IntList());
            lagged.add(new IntList());
        }
        if (clock.length <= agent) {
            int from = clock.length;
            clock = Arrays.copyOf(clock, agent + 1);
            Arrays.fill(clock, from, clock.length, Long.MIN_VALUE);
        }
    }

    private void remember(int txn, int agent) {
        if (txn >= agentOf.length) {
            agentOf = Arrays.copyOf(agentOf, Math.max(agentOf.length * 2, txn + 1));
        }
        agentOf[txn] = agent;
    }

    /**
     * Forgets the transactions below {@code cut} and renumbers the rest down by {@code cut}
     * ({@link IncrementalChecker#evictBelow}): a forgotten transaction leaves every buffer and
     * snapshot, so it is linked to no later one; a pending forgotten one and its queued completion
     * are dropped (its own predecessors, invoked before it, are forgotten too). Linear in what is
     * held.
     */
    void evictBelow(int cut, int nodes) {
        for (IntList b : current) {
            renumber(b, cut);
        }
        for (IntList b : lagged) {
            renumber(b, cut);
        }
        Map<Integer, Snapshot> kept = new HashMap<>();
        pending.forEach((txn, s) -> {
            if (txn >= cut) {
                int[] own = renumber(Arrays.copyOf(s.sources, s.own), cut);
                int[] others = renumber(Arrays.copyOfRange(s.sources, s.own, s.sources.length), cut);
                int[] all = Arrays.copyOf(own, own.length + others.length);
                System.arraycopy(others, 0, all, own.length, others.length);
                kept.put(txn - cut, new Snapshot(all, own.length));
            }
        });
        pending.clear();
        pending.putAll(kept);
        for (Iterator<Lag> it = lags.iterator(); it.hasNext(); ) {
            if (it.next().txn < cut) {
                it.remove();
            }
        }
        List<Lag> renumbered = new ArrayList<>(lags.size());
        for (Lag lag : lags) {
            renumbered.add(new Lag(lag.agent, lag.txn - cut, lag.time, renumber(lag.ownPredecessors, cut)));
        }
        lags.clear();
        lags.addAll(renumbered);
        int retained = Math.max(0, nodes - cut);
        int[] shifted = new int[Math.max(64, retained)];
        System.arraycopy(agentOf, Math.min(cut, agentOf.length), shifted, 0,
                Math.min(retained, Math.max(0, agentOf.length - cut)));
        agentOf = shifted;
    }

    private static void renumber(IntList buffer, int cut) {
        int[] kept = renumber(buffer.toArray(), cut);
        buffer.clear();
        for (int t : kept) {
            buffer.add(t);
        }
    }

    private static int[] renumber(int[] ids, int cut) {
        int n = 0;
        int[] out = new int[ids.length];
        for (int id : ids) {
            if (id >= cut) {
                out[n++] = id - cut;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
