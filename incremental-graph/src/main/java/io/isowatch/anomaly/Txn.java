package io.isowatch.anomaly;

import io.isowatch.history.Op;

import java.util.Objects;

/**
 * A transaction as a finding shows it: the checker's id for it, the index of its invocation,
 * and its completion op with everything it read.
 *
 * @param id          the checker's dense id (order of completion), stable for one run
 * @param invokeIndex the history index of the invocation
 * @param invokeTime  the time of the invocation in nanoseconds, or -1
 * @param completion  the ok, info or fail completion
 */
public record Txn(int id, long invokeIndex, long invokeTime, Op completion) {

    public Txn {
        Objects.requireNonNull(completion, "completion");
    }

    /** The history index of the completion. */
    public long index() {
        return completion.index();
    }
}
