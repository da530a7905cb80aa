package io.isowatch.agent.client;

/**
 * The transaction certainly did not commit: none of its writes took effect, and none ever will
 * (a rejected commit, a serialization failure such as SQLSTATE 40001, a deadlock victim, an
 * error before anything was sent). Recorded as {@code fail}; the process may invoke again.
 */
public final class DefinitelyAbortedException extends TransactionFailedException {

    private static final long serialVersionUID = 1L;

    public DefinitelyAbortedException(String message, Throwable cause) {
        super(message, cause);
    }

    public DefinitelyAbortedException(String message) {
        super(message, null);
    }
}
