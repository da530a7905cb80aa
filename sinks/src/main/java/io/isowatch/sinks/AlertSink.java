package io.isowatch.sinks;

/**
 * Takes alerts, one finding each, and delivers them somewhere.
 *
 * <p>{@link #accept} runs on the caller's thread with an already rendered alert; each
 * implementation says whether it may block and what it does with a failed delivery. A sink may deliver an alert more than once (after a restart, say): consumers
 * de-duplicate by {@link Alert#id()}.
 */
public interface AlertSink extends AutoCloseable {

    /** Delivers one alert. */
    void accept(Alert alert);

    /** Delivers what is still buffered and releases the sink's resources; idempotent. */
    @Override
    void close();
}
