package io.isowatch.history;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgentMergeTest {

    private static Op op(long index, long time, long process) {
        return new Op(index, time, OpType.INVOKE, process, List.of(new MicroOp.Append(1, process * 100 + index)),
                index + 1);
    }

    private static List<AgentMerge.Merged> all(List<String> ids, List<List<Op>> streams) {
        List<Iterator<Op>> its = new ArrayList<>();
        streams.forEach(s -> its.add(s.iterator()));
        List<AgentMerge.Merged> out = new ArrayList<>();
        AgentMerge.merge(ids, its).forEachRemaining(out::add);
        return out;
    }

    /** "agent:own-index" per merged event. */
    private static List<String> order(List<AgentMerge.Merged> merged) {
        return merged.stream().map(m -> m.agent() + ":" + (m.op().sourceLine() - 1)).toList();
    }

    @Test
    void merge_ordersByTime_andRenumbersDensely_keepingEverythingElse() {
        List<AgentMerge.Merged> m = all(List.of("a", "b"), List.of(
                List.of(op(0, 10, 1), op(1, 30, 1)),
                List.of(op(0, 20, 2), op(1, 40, 2))));
        assertEquals(List.of("0:0", "1:0", "0:1", "1:1"), order(m));
        assertEquals(List.of(0L, 1L, 2L, 3L), m.stream().map(x -> x.op().index()).toList());
        assertEquals(List.of(10L, 20L, 30L, 40L), m.stream().map(x -> x.op().time()).toList());
        assertEquals(op(1, 30, 1).value(), m.get(2).op().value());
        assertEquals(2, m.get(2).op().sourceLine());
    }

    @Test
    void equalTimes_fallToTheAgentId_notToTheListOrder() {
        List<AgentMerge.Merged> m = all(List.of("zed", "alpha"), List.of(
                List.of(op(0, 10, 1)),
                List.of(op(0, 10, 2))));
        assertEquals(List.of("1:0", "0:0"), order(m));
    }

    @Test
    void timesGoingBackwards_keepTheAgentsOwnOrder() {
        // Agent a's second event says 5, before b's 8; a's order is exact, so it stays after a's
        // first (merge time 20) and so after b's event.
        List<AgentMerge.Merged> m = all(List.of("a", "b"), List.of(
                List.of(op(0, 20, 1), op(1, 5, 1)),
                List.of(op(0, 8, 2))));
        assertEquals(List.of("1:0", "0:0", "0:1"), order(m));
        assertEquals(5, m.get(2).op().time(), "the time itself is kept");
    }

    @Test
    void mergeTime_isTheRunningMaximum() {
        assertEquals(7, AgentMerge.mergeTime(AgentMerge.NO_TIME_YET, 7));
        assertEquals(9, AgentMerge.mergeTime(9, 3));
        assertEquals(9, AgentMerge.mergeTime(9, -1));
    }

    @Test
    void compare_isTimeThenAgentThenSequence() {
        assertTrue(AgentMerge.compare(1, "b", 9, 2, "a", 0) < 0);
        assertTrue(AgentMerge.compare(2, "a", 9, 2, "b", 0) < 0);
        assertTrue(AgentMerge.compare(2, "a", 3, 2, "a", 4) < 0);
        assertEquals(0, AgentMerge.compare(2, "a", 3, 2, "a", 3));
    }

    @Test
    void merge_isLazy_holdingOneEventPerAgent() {
        int[] taken = new int[1];
        Iterator<Op> endless = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public Op next() {
                return op(taken[0], taken[0]++, 1);
            }
        };
        AgentMerge merge = AgentMerge.merge(List.of("a", "b"), List.of(endless, List.of(op(0, 100, 2)).iterator()));
        for (int i = 0; i < 10; i++) {
            assertEquals(0, merge.next().agent());
        }
        assertEquals(11, taken[0], "one event ahead of what was given");
    }

    @Test
    void emptyStreams_mergeToNothing() {
        assertFalse(AgentMerge.merge(List.of("a"), List.of(List.<Op>of().iterator())).hasNext());
    }

    @Test
    void repeatedAgentIds_areRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AgentMerge.merge(
                List.of("a", "a"), List.of(List.<Op>of().iterator(), List.<Op>of().iterator())));
        assertTrue(e.getMessage().contains("\"a\" is given twice"), e.getMessage());
    }
}
