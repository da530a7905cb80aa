package io.isowatch.agent.store;

/**
 * The store aborted the transaction: none of its writes took effect, and it holds no locks
 * any more. Thrown by reads, writes and commit; the transaction is finished once it is thrown.
 */
public final class TransactionAbortedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final AbortReason reason;

    public TransactionAbortedException(AbortReason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    /** Why the transaction was aborted. */
    public AbortReason reason() {
        return reason;
    }
}
