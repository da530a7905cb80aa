package io.isowatch.history;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The one rule by which several agents' event streams become one history: {@code check} merges
 * files with it and the stream job orders single events by it, so both see the same history.
 *
 * <p>Events are ordered by (merge time, agent id, the agent's own sequence). An event's merge time
 * is the largest time its agent has shown so far ({@link #mergeTime}): an agent's own order is
 * exact (its events are numbered as they happened), so the merge keeps it even when a file's times
 * go backwards, and the merged times never decrease. Ties between agents fall to the agent id, a
 * string, so the order does not depend on the order the agents are listed or arrive in.
 *
 * <p>{@link #merge} is lazy: it holds one event per agent, so histories of millions of events are
 * merged in constant memory. Cost: O(log agents) per event. Not thread-safe.
 */
public final class AgentMerge implements Iterator<AgentMerge.Merged> {

    /** The merge time before an agent's first event. */
    public static final long NO_TIME_YET = Long.MIN_VALUE;

    /**
     * One merged event: the ordinal of the agent that recorded it (its position in the list given
     * to {@link #merge}) and the event, its index renumbered densely from 0 in merged order; its
     * time, process, value and source line are the agent's.
     */
    public record Merged(int agent, Op op) {
        public Merged {
            if (agent < 0) {
                throw new IllegalArgumentException("agent ordinal must be >= 0, got " + agent);
            }
            Objects.requireNonNull(op, "op");
        }
    }

    private final List<String> agentIds;
    private final List<? extends Iterator<Op>> streams;
    private final PriorityQueue<Head> heads = new PriorityQueue<>(AgentMerge::compare);
    private final long[] lastMergeTime;
    private long nextIndex;

    private AgentMerge(List<String> agentIds, List<? extends Iterator<Op>> streams) {
        this.agentIds = agentIds;
        this.streams = streams;
        this.lastMergeTime = new long[agentIds.size()];
        for (int a = 0; a < agentIds.size(); a++) {
            lastMergeTime[a] = NO_TIME_YET;
            advance(a);
        }
    }

    /**
     * Merges the agents' streams, each in its agent's own order, into one history.
     *
     * @param agentIds the agents' ids, distinct; an ordinal is a position in this list
     * @param streams  each agent's events, in the same order as {@code agentIds}
     * @throws IllegalArgumentException for ids that repeat, or lists of different sizes
     */
    public static AgentMerge merge(List<String> agentIds, List<? extends Iterator<Op>> streams) {
        List<String> ids = List.copyOf(agentIds);
        if (ids.size() != streams.size()) {
            throw new IllegalArgumentException(ids.size() + " agent ids for " + streams.size()
                    + " streams: give one id per stream");
        }
        Set<String> seen = new HashSet<>();
        for (String id : ids) {
            if (!seen.add(id)) {
                throw new IllegalArgumentException("agent id \"" + id + "\" is given twice: each agent's events must "
                        + "come in one stream (the merge orders ties by agent id)");
            }
        }
        return new AgentMerge(ids, new ArrayList<>(streams));
    }

    /**
     * An agent's merge time for an event at {@code time}, given its merge time for the previous
     * event ({@link #NO_TIME_YET} before the first): the larger of the two. A missing time (-1)
     * keeps the previous one.
     */
    public static long mergeTime(long previous, long time) {
        return Math.max(previous, time);
    }

    /**
     * Compares two events by the merge order: merge time, then agent id, then the agent's own
     * sequence (its events' index in its own stream).
     */
    public static int compare(long mergeTimeA, String agentA, long sequenceA,
                              long mergeTimeB, String agentB, long sequenceB) {
        int c = Long.compare(mergeTimeA, mergeTimeB);
        if (c != 0) {
            return c;
        }
        c = agentA.compareTo(agentB);
        return c != 0 ? c : Long.compare(sequenceA, sequenceB);
    }

    /** The ids given, by ordinal. */
    public List<String> agentIds() {
        return agentIds;
    }

    @Override
    public boolean hasNext() {
        return !heads.isEmpty();
    }

    @Override
    public Merged next() {
        Head head = heads.poll();
        if (head == null) {
            throw new NoSuchElementException("the merged history has no more events");
        }
        advance(head.agent);
        return new Merged(head.agent, head.op.withIndex(nextIndex++));
    }

    /** Takes the next event of {@code agent}'s stream, if any, into the heap. */
    private void advance(int agent) {
        Iterator<Op> stream = streams.get(agent);
        if (!stream.hasNext()) {
            return;
        }
        Op op = stream.next();
        long t = mergeTime(lastMergeTime[agent], op.time());
        lastMergeTime[agent] = t;
        heads.add(new Head(agent, agentIds.get(agent), t, op));
    }

    private static int compare(Head a, Head b) {
        return compare(a.mergeTime, a.agentId, a.op.index(), b.mergeTime, b.agentId, b.op.index());
    }

    private record Head(int agent, String agentId, long mergeTime, Op op) {
    }
}
