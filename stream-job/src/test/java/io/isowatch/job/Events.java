package io.isowatch.job;

import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.List;

/** Compact builders of history events for the job's tests; times are given in milliseconds. */
public final class Events {

    private Events() {
    }

    public static HistoryEvent event(String agent, long seq, OpType type, long process, long timeMillis, MicroOp... mops) {
        return new HistoryEvent(agent, seq, new Op(seq, timeMillis * 1_000_000L, type, process, List.of(mops)));
    }

    public static HistoryEvent invoke(String agent, long seq, long process, long timeMillis) {
        return event(agent, seq, OpType.INVOKE, process, timeMillis,
                new MicroOp.Append(1, seq), new MicroOp.Read(2, null));
    }

    public static HistoryEvent ok(String agent, long seq, long process, long timeMillis) {
        return event(agent, seq, OpType.OK, process, timeMillis,
                new MicroOp.Append(1, seq - 1), new MicroOp.Read(2, new long[] {1, 2}));
    }

    public static HistoryEvent complete(OpType type, String agent, long seq, long process, long timeMillis) {
        return event(agent, seq, type, process, timeMillis, new MicroOp.Append(1, seq - 1), new MicroOp.Read(2, null));
    }
}
