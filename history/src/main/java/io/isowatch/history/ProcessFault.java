package io.isowatch.history;

/**
 * How an op can break Jepsen's protocol for one process: a process runs one operation at a time,
 * and after an {@code :info} completion (an outcome it could not learn) it is retired for good.
 *
 * <p>The one statement of that rule: the checker refuses such an op (check exits 255 on it), and
 * the stream job's {@code ProcessGate} routes it to the dead-letter output before the checker
 * sees it. A completion with no pending invocation is no fault: Elle checks it as a transaction
 * invoked at an unknown time.
 */
public enum ProcessFault {
    /** The op keeps the protocol. */
    NONE,
    /** An invocation while the process's previous invocation is still pending. */
    DOUBLE_INVOCATION,
    /** An invocation, or a completion without a pending invocation, after the process's {@code :info}. */
    REUSED_AFTER_INFO;

    /**
     * Judges an op of {@code type} by a process that has an invocation {@code pending} or not and
     * that is {@code retired} (completed {@code :info} before) or not.
     */
    public static ProcessFault of(OpType type, boolean pending, boolean retired) {
        if (type == OpType.INVOKE) {
            if (pending) {
                return DOUBLE_INVOCATION;
            }
            return retired ? REUSED_AFTER_INFO : NONE;
        }
        return !pending && retired ? REUSED_AFTER_INFO : NONE;
    }
}
