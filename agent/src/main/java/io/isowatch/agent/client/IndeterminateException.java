package io.isowatch.agent.client;

/**
 * The transaction may or may not have committed (a connection lost during commit, a timeout
 * waiting for the acknowledgement). Recorded as {@code info}; the process that issued it never
 * invokes again, and the client should be discarded, since its connection may be in any state.
 */
public final class IndeterminateException extends TransactionFailedException {

    private static final long serialVersionUID = 1L;

    public IndeterminateException(String message, Throwable cause) {
        super(message, cause);
    }

    public IndeterminateException(String message) {
        super(message, null);
    }
}
