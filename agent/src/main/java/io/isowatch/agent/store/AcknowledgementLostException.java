package io.isowatch.agent.store;

/**
 * Injected fault: the transaction committed, but the acknowledgement was "lost" on its way to
 * the client, which therefore cannot know the outcome.
 */
public final class AcknowledgementLostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public AcknowledgementLostException(String message) {
        super(message, null, false, false);
    }
}
