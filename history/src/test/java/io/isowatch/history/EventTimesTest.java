package io.isowatch.history;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class EventTimesTest {

    private static Op op(long index, long time) {
        return new Op(index, time, OpType.INVOKE, index, List.of(new MicroOp.Append(1, index)));
    }

    @Test
    void missingAndNegativeTimes_takeTheLastUsableTime_zeroAtTheStart() {
        List<Op> filled = EventTimes.filledIn(List.of(op(0, -1), op(1, 50), op(2, -3), op(3, -1), op(4, 70)));
        assertEquals(List.of(0L, 50L, 50L, 50L, 70L), filled.stream().map(Op::time).toList());
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), filled.stream().map(Op::index).toList());
        assertEquals(op(2, -3).value(), filled.get(2).value());
    }

    @Test
    void usableTimes_areKept_withoutCopying() {
        List<Op> ops = List.of(op(0, 0), op(1, 5), op(2, 5));
        assertSame(ops, EventTimes.filledIn(ops));
    }
}
