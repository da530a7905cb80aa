package io.isowatch.checker;

import io.isowatch.history.Op;

/**
 * The history itself is malformed, so no verdict can be given: a double invocation, a
 * completion without an invocation, a process reused after {@code info}, an append value used
 * twice for one key, an event too late for the reorder window.
 *
 * <p>The message names the offending op's source line (when it came from a file) and value.
 */
public final class HistoryViolationException extends RuntimeException {

    private final transient Op op;

    public HistoryViolationException(Op op, String message) {
        super(message);
        this.op = op;
    }

    /** The op at fault. */
    public Op op() {
        return op;
    }

    /** The 1-based source line of the op at fault, or -1. */
    public long sourceLine() {
        return op == null ? -1 : op.sourceLine();
    }
}
