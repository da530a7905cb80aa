package io.isowatch.history;

import java.util.ArrayList;
import java.util.List;

/**
 * Event times for a recorded history that is fed to the stream job.
 *
 * <p>Elle never reads {@code :time} (its realtime order is history order), so Jepsen histories
 * may leave it out (time -1) or carry negative or repeated values, and {@code check} accepts
 * them. The job, though, orders and releases events by event time. A file replayed into it
 * therefore gives each op without a usable time (below 0) the last usable time before it (0 at
 * the start): history order is kept, and no op jumps ahead of the ones before it.
 */
public final class EventTimes {

    private EventTimes() {
    }

    /** The ops with every negative time filled in as above; the list itself when none is negative. */
    public static List<Op> filledIn(List<Op> ops) {
        if (ops.stream().allMatch(op -> op.time() >= 0)) {
            return ops;
        }
        List<Op> out = new ArrayList<>(ops.size());
        long last = 0;
        for (Op op : ops) {
            if (op.time() >= 0) {
                last = op.time();
                out.add(op);
            } else {
                out.add(new Op(op.index(), last, op.type(), op.process(), op.value(), op.sourceLine()));
            }
        }
        return out;
    }
}
