package io.isowatch.agent.client;

/**
 * A transaction did not complete normally. The two subclasses say what the client knows about
 * its effect, which decides the history's completion type: {@link DefinitelyAbortedException}
 * ({@code fail}) or {@link IndeterminateException} ({@code info}). Adapters must choose
 * conservatively: when in doubt, the outcome is indeterminate.
 */
public abstract sealed class TransactionFailedException extends Exception
        permits DefinitelyAbortedException, IndeterminateException {

    private static final long serialVersionUID = 1L;

    protected TransactionFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
