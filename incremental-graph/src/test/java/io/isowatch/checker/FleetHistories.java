package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.history.AgentMerge;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Fleet histories for tests: one history, as a simulated store recorded it on one true clock,
 * split among agents (a client thread's processes stay on one agent) whose clocks are offset,
 * each agent's events densely numbered in its own order, then merged back by {@link AgentMerge}
 * as {@code check} and the job merge them.
 */
final class FleetHistories {

    private FleetHistories() {
    }

    /** The agent of {@code process}: its client thread's (Jepsen renames a crashed thread {@code p + concurrency}). */
    static int agentOf(long process, int concurrency, int agents) {
        return (int) (process % concurrency % agents);
    }

    /**
     * Splits {@code history} among {@code offsets.length} agents, agent {@code a}'s clock reading
     * the true time plus {@code offsets[a]}, and merges the agents' streams.
     */
    static List<AgentMerge.Merged> splitAndMerge(List<Op> history, int concurrency, long[] offsets) {
        int agents = offsets.length;
        List<List<Op>> own = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int a = 0; a < agents; a++) {
            own.add(new ArrayList<>());
            ids.add("agent-" + a);
        }
        for (Op op : history) {
            int a = agentOf(op.process(), concurrency, agents);
            List<Op> mine = own.get(a);
            mine.add(new Op(mine.size(), op.time() + offsets[a], op.type(), op.process(), op.value(),
                    op.sourceLine()));
        }
        List<Iterator<Op>> streams = new ArrayList<>();
        own.forEach(l -> streams.add(l.iterator()));
        List<AgentMerge.Merged> merged = new ArrayList<>();
        AgentMerge.merge(ids, streams).forEachRemaining(merged::add);
        return merged;
    }

    /** A checker of a fleet with the given uncertainty, fed {@code merged}; findings go to {@code streamed}. */
    static IncrementalChecker fleetChecker(CheckerOptions options, Duration epsilon, List<AgentMerge.Merged> merged,
                                           List<Finding> streamed) {
        IncrementalChecker checker = new IncrementalChecker(options, new AtomTable(), streamed::add);
        checker.checkAsFleet(epsilon);
        for (AgentMerge.Merged m : merged) {
            checker.accept(m.op(), m.agent());
        }
        return checker;
    }

    /** The findings other than Elle's note on a graph without edges, which tiny histories may have. */
    static List<Finding> anomalies(List<Finding> streamed) {
        return streamed.stream().filter(f -> f.type() != AnomalyType.EMPTY_TRANSACTION_GRAPH).toList();
    }
}
