package io.isowatch.checker;

import io.isowatch.collect.IntList;
import io.isowatch.graph.EdgeKind;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
 * other agent's lagged buffer; it is linked, at its completion as {@link SessionOrder} links
 * Elle's, from those members that precede no other member (the buffers are reductions per agent,
 * not across agents). Each edge linked satisfies the rule; every pair the rule relates is joined
 * by a path of linked edges (a transaction left a lagged buffer only for a committed successor on
 * its agent that entered that buffer no later; a member left out precedes one linked), so the
 * transitive closure is the rule's.
 *
 * <p>Times are the agent's merge times ({@code io.isowatch.history.AgentMerge#mergeTime}): its
 * running maximum, the only reading consistent with its own exact order. Events must come in
 * the merge order, in which merge times never decrease. Should one come whose merge time is
 * below the history's merged time so far (a feed not in that order), it is still judged soundly,
 * by losing edges: its invocation sees only its own agent's buffer, its completion counts as at
 * the merged time. Edges are stored in the graph like any other (the implicit
 * {@code RealtimeEdges} assumes one realtime order of ids, which a fleet does not have).
 *
 * <p>Cost per invocation: O(agents + snapshot²), the snapshot being about the fleet's concurrency
 * (each buffer holds about its agent's clients); memory: the buffers, the pending snapshots and
 * the completions of the last {@code ε}, nothing per transaction but its agent (an int).
 */
final class FleetRealtime {

    /** A committed completion not yet applied to its agent's lagged buffer. */
    private record Lag(int agent, int txn, int[] ownPredecessors, long invokeSeq, long invokeTime, long completeSeq,
                       long completeTime) {
    }

    /**
     * A pending transaction's snapshot: its own agent's buffer at its invocation (which its
     * committed completion replaces there), the predecessors it is linked from (the maximal
     * members of the whole snapshot), and when it was invoked.
     */
    private record Snapshot(int[] own, int[] links, long invokeSeq, long invokeTime) {
    }

    private static final int[] NONE = new int[0];

    private final long epsilon;
    private final List<RealtimeBuffer> current = new ArrayList<>();
    private final List<RealtimeBuffer> lagged = new ArrayList<>();
    private long[] clock = new long[0];
    private long now = Long.MIN_VALUE;
    /** Events seen: the merged position of the latest. */
    private long seq;
    private final Map<Integer, Snapshot> pending = new HashMap<>();
    private final ArrayDeque<Lag> lags = new ArrayDeque<>();
    /** The agent of each transaction, by id. */
    private int[] agentOf = new int[64];
    private boolean linkedToFailed;

    /** Scratch of {@link #invoked}: the snapshot's members and their times. */
    private final RealtimeBuffer members = new RealtimeBuffer();
    private final IntList memberAgents = new IntList();

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
        RealtimeBuffer own = current.get(agent);
        members.clear();
        memberAgents.clear();
        int sources = 0;
        sources += collect(own, agent);
        for (int a = 0; inOrder && a < lagged.size(); a++) {
            sources += a == agent ? 0 : collect(lagged.get(a), a);
        }
        // One buffer is a reduction already; only members of several may precede one another.
        int[] links = sources > 1 ? maximal() : members.ids();
        pending.put(txn, new Snapshot(own.ids(), links, seq, clock[agent]));
    }

    /** Adds {@code buffer}'s members to the snapshot; returns 1 if it had any. */
    private int collect(RealtimeBuffer buffer, int agent) {
        for (int i = 0; i < buffer.size(); i++) {
            members.add(buffer.id(i), buffer.invokeSeq(i), buffer.invokeTime(i), buffer.completeSeq(i),
                    buffer.completeTime(i));
            memberAgents.add(agent);
        }
        return buffer.size() > 0 ? 1 : 0;
    }

    /**
     * The members of the snapshot that precede no other member. The buffers are reductions per
     * agent only: another agent's lagged member may precede a member of this snapshot, and its
     * edge is then implied (it reaches that member, which is linked). The rule is a strict order
     * (each pair it relates has the completion before the invocation in the merged history), so
     * every member left out precedes a maximal one, which is kept. O(snapshot²).
     */
    private int[] maximal() {
        int n = members.size();
        int[] out = new int[n];
        int kept = 0;
        for (int x = 0; x < n; x++) {
            boolean implied = false;
            for (int y = 0; y < n && !implied; y++) {
                implied = x != y && precedes(x, y);
            }
            if (!implied) {
                out[kept++] = members.id(x);
            }
        }
        return kept == n ? out : Arrays.copyOf(out, kept);
    }

    /** The rule between the snapshot's members {@code x} and {@code y}. */
    private boolean precedes(int x, int y) {
        return memberAgents.get(x) == memberAgents.get(y) ? members.completeSeq(x) < members.invokeSeq(y)
                : members.completeTime(x) + epsilon < members.invokeTime(y);
    }

    /**
     * {@code txn}'s completion came without its invocation: nothing is known to precede it in
     * real time, as in Elle. Its time still moves its agent's clock.
     */
    void invokedAtUnknownTime(int txn, int agent, long time) {
        advance(agent, time);
        remember(txn, agent);
        pending.put(txn, new Snapshot(NONE, NONE, seq, clock[agent]));
    }

    /** {@code txn} completed at {@code time} with {@code outcome} (a {@link TxnTable} status): links its snapshot. */
    void completed(int txn, long time, byte outcome, SessionOrder.Links out) {
        int agent = agentOf[txn];
        advance(agent, time);
        Snapshot s = pending.remove(txn);
        if (outcome != TxnTable.FAIL) {
            for (int from : s.links) {
                out.link(from, txn, EdgeKind.REALTIME);
            }
        } else if (s.links.length > 0) {
            linkedToFailed = true; // as SessionOrder: Elle's graph has such an edge, isowatch keeps none
        }
        if (outcome == TxnTable.OK) {
            // Not before the merged time: a completion seen late counts as late, which only delays it.
            long completedAt = Math.max(clock[agent], now);
            current.get(agent).replace(s.own, txn, s.invokeSeq, s.invokeTime, seq, completedAt);
            lags.addLast(new Lag(agent, txn, s.own, s.invokeSeq, s.invokeTime, seq, completedAt));
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
        seq++;
        while (!lags.isEmpty() && now - lags.peekFirst().completeTime > epsilon) {
            Lag lag = lags.pollFirst();
            lagged.get(lag.agent).replace(lag.ownPredecessors, lag.txn, lag.invokeSeq, lag.invokeTime,
                    lag.completeSeq, lag.completeTime);
        }
        return inOrder;
    }

    private void ensureAgent(int agent) {
        if (agent < 0) {
            throw new IllegalArgumentException("agent ordinal must be >= 0, got " + agent);
        }
        while (current.size() <= agent) {
            current.add(new RealtimeBuffer());
            lagged.add(new RealtimeBuffer());
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
        for (RealtimeBuffer b : current) {
            b.evictBelow(cut);
        }
        for (RealtimeBuffer b : lagged) {
            b.evictBelow(cut);
        }
        Map<Integer, Snapshot> kept = new HashMap<>();
        pending.forEach((txn, s) -> {
            if (txn >= cut) {
                kept.put(txn - cut, new Snapshot(renumber(s.own, cut), renumber(s.links, cut), s.invokeSeq,
                        s.invokeTime));
            }
        });
        pending.clear();
        pending.putAll(kept);
        List<Lag> renumbered = new ArrayList<>(lags.size());
        for (Lag lag : lags) {
            if (lag.txn >= cut) {
                renumbered.add(new Lag(lag.agent, lag.txn - cut, renumber(lag.ownPredecessors, cut), lag.invokeSeq,
                        lag.invokeTime, lag.completeSeq, lag.completeTime));
            }
        }
        lags.clear();
        lags.addAll(renumbered);
        int retained = Math.max(0, nodes - cut);
        int[] shifted = new int[Math.max(64, retained)];
        System.arraycopy(agentOf, Math.min(cut, agentOf.length), shifted, 0,
                Math.min(retained, Math.max(0, agentOf.length - cut)));
        agentOf = shifted;
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
