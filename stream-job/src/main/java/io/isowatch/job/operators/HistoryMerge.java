package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;

import org.apache.flink.streaming.api.TimeDomain;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges the lanes of a history's agents into the one order the checker takes (decision 0021):
 * by merge time, then agent id, then sequence, the order {@code isowatch check} gives several
 * agents' files. An event leaves only once no live agent can still bring one that goes before it.
 *
 * <p><b>The history's watermark.</b> A lane bounds what it can still bring by its own events and
 * by the job's watermark ({@link AgentLane#frontier}); the history's watermark is the least bound
 * among its live lanes, so the slowest live agent sets the pace, and an agent stops holding the
 * others back once it has been silent for the idle timeout of the history's event time. An event
 * of an agent behind what was already merged is late ({@link #isBehind}): feeding it would put it
 * after events that came later than it, and the realtime order across agents would be wrong.
 *
 * <p><b>Agents that join.</b> Agents are known only once their events arrive. Before the first
 * merge, when a history's agents may still be showing up (the first batch from one partition can
 * arrive before any from the next), nothing leaves until the job's watermark has passed it.
 * After that, an event also waits until the history has seen an event at least the join grace
 * later (or the watermark has passed it), so an agent that starts while the others run, and
 * whose first records reach the job up to that much behind theirs, still merges in order. One
 * whose first events come later than that is counted late, never merged out of order.
 *
 * <p>A history recorded by one agent (not a fleet) merges whatever its lane lets go, at once, so
 * it is checked exactly as before histories could have several agents.
 */
final class HistoryMerge {

    private final String history;
    private boolean fleet;
    private final long idleMillis;
    private final long joinGraceNanos;
    private final Map<String, AgentLane> lanes = new LinkedHashMap<>();
    /** The merge time of the last event merged. */
    private long mergedTime = AgentLane.NONE;
    private long newestArrivalMillis = AgentLane.NONE;
    private boolean started;

    /**
     * @param history    the history's name: an agent of another name makes it a fleet's
     * @param idleMillis event time after which a silent agent stops holding the history back; 0 never
     * @param joinGrace  event time (ms) an event of a fleet waits for agents not yet seen
     */
    HistoryMerge(String history, long idleMillis, long joinGrace) {
        this.history = history;
        this.idleMillis = idleMillis;
        this.joinGraceNanos = EventTime.opTime(joinGrace);
    }

    boolean isFleet() {
        return fleet;
    }

    /** The agent's lane, or null if none of its events was seen. */
    AgentLane lane(String agent) {
        return lanes.get(agent);
    }

    /**
     * Adds an agent's lane. A history is a fleet's once an agent other than the one it is named
     * after records into it: a lone agent's history carries the agent's id as its name.
     */
    AgentLane add(AgentLane lane) {
        lanes.put(lane.agent, lane);
        fleet |= !lane.agent.equals(history);
        return lane;
    }

    Collection<AgentLane> lanes() {
        return lanes.values();
    }

    /** Whether an event arrived behind what the merge already let go: late, even if the watermark has not passed it. */
    boolean isBehind(HistoryEvent e) {
        return fleet && started && e.op().time() < mergedTime;
    }

    void arrived(AgentLane lane, HistoryEvent e) {
        lane.arrived(e);
        newestArrivalMillis = Math.max(newestArrivalMillis, EventTime.of(e));
    }

    /** Records an event merged before a restore (a replay of the checked batches). */
    void merged(AgentLane lane, HistoryEvent e) {
        lane.merged(e);
        mergedTime = Math.max(mergedTime, e.op().time());
        started = true;
    }

    /**
     * Lets each agent's order release what a firing timer allows ({@link ReleaseOrder#take}),
     * then removes and returns the events that may enter the checker now, in merge order. A lone
     * agent's run is returned as its order released it, without passing through the ready queue.
     *
     * @param watermarkMillis the job's watermark; {@code Long.MAX_VALUE} at the end of the input
     */
    List<HistoryEvent> release(TimeDomain domain, long timestamp, long watermarkMillis) {
        if (!fleet) {
            if (lanes.isEmpty()) {
                return new ArrayList<>();
            }
            AgentLane lane = lanes.values().iterator().next(); // a history that is no fleet's has one agent
            List<HistoryEvent> run = lane.order.take(domain, timestamp, watermarkMillis);
            if (!run.isEmpty()) {
                lane.merged(run.get(run.size() - 1));
            }
            return run;
        }
        for (AgentLane lane : lanes.values()) {
            lane.letGo(lane.order.take(domain, timestamp, watermarkMillis));
        }
        return take(watermarkMillis);
    }

    /** Removes and returns a fleet's ready events that may enter the checker now, in merge order. */
    private List<HistoryEvent> take(long watermarkMillis) {
        List<HistoryEvent> out = new ArrayList<>();
        long afterWatermark = afterWatermark(watermarkMillis);
        while (true) {
            AgentLane best = null;
            long time = 0;
            for (AgentLane lane : lanes.values()) {
                if (lane.hasReady()) {
                    long t = lane.headMergeTime();
                    if (best == null || t < time || t == time && lane.agent.compareTo(best.agent) < 0) {
                        best = lane;
                        time = t;
                    }
                }
            }
            if (best == null || time >= afterWatermark && (!started || time > joinedUpTo())
                    || heldBack(best, time, afterWatermark)) {
                break;
            }
            out.add(best.merge());
            mergedTime = Math.max(mergedTime, time);
        }
        if (!out.isEmpty()) {
            started = true;
        }
        return out;
    }

    /** Whether a live lane with nothing ready may still bring an event that goes before {@code time} of {@code best}. */
    private boolean heldBack(AgentLane best, long time, long afterWatermark) {
        for (AgentLane lane : lanes.values()) {
            if (lane == best || lane.hasReady() || isIdle(lane)) {
                continue;
            }
            long bound = lane.frontier(afterWatermark);
            if (bound < time || bound == time && lane.agent.compareTo(best.agent) < 0) {
                return true;
            }
        }
        return false;
    }

    /** The latest time an agent not yet seen can no longer bring an event before, by the join grace. */
    private long joinedUpTo() {
        return newestArrivalMillis == AgentLane.NONE ? Long.MIN_VALUE
                : EventTime.opTime(newestArrivalMillis) - joinGraceNanos;
    }

    private boolean isIdle(AgentLane lane) {
        return idleMillis > 0 && lane.isEmpty() && lane.lastArrivalMillis() != AgentLane.NONE
                && newestArrivalMillis - lane.lastArrivalMillis() > idleMillis;
    }

    /**
     * The event time (ms) at which a timer should run the merge again because it waits for the
     * watermark, or {@link AgentLane#NONE} when it waits for nothing or only for events to arrive.
     */
    long retryAt() {
        long earliest = AgentLane.NONE;
        for (AgentLane lane : lanes.values()) {
            if (lane.hasReady()) {
                long ms = Math.floorDiv(lane.headMergeTime(), EventTime.opTime(1));
                earliest = earliest == AgentLane.NONE ? ms : Math.min(earliest, ms);
            }
        }
        return earliest;
    }

    /** The first op time an event not yet arrived can carry without being behind the watermark. */
    private static long afterWatermark(long watermarkMillis) {
        if (watermarkMillis == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        if (watermarkMillis == Long.MIN_VALUE) {
            return Long.MIN_VALUE;
        }
        return EventTime.opTime(watermarkMillis + 1);
    }
}
