package io.isowatch.history;

import java.util.List;
import java.util.Objects;

/**
 * One Jepsen history event: an invocation or a completion of a transaction by a process.
 *
 * @param index      the event's position in the history ({@code :index}); dense from 0 in
 *                   histories Jepsen writes
 * @param time       nanoseconds since the test began ({@code :time}), or -1 when absent
 * @param type       invoke, ok, fail or info
 * @param process    the client process; a process runs one operation at a time
 * @param value      the micro-ops. For an invocation, reads are unknown; for an ok completion
 *                   they carry what was read
 * @param sourceLine the 1-based line of the input this event came from, or -1 when it did not
 *                   come from a file; used only to name the place of an error
 */
public record Op(long index, long time, OpType type, long process, List<MicroOp> value, long sourceLine) {

    public Op {
        Objects.requireNonNull(type, "type");
        value = MicroOpList.of(value);
    }

    /** An op that did not come from a file. */
    public Op(long index, long time, OpType type, long process, List<MicroOp> value) {
        this(index, time, type, process, value, -1);
    }

    /** Returns this op with another index, keeping everything else. */
    public Op withIndex(long newIndex) {
        return new Op(newIndex, time, type, process, value, sourceLine);
    }
}
