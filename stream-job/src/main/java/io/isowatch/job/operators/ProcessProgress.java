package io.isowatch.job.operators;

/**
 * What {@link ProcessGate} remembers about one process of an agent between
 * transactions: its entry in the {@code process-progresses} state.
 *
 * @param lastSequence  the highest sequence number let go so far; anything at or below it is a
 *                      re-sent copy
 * @param lastTimestamp the event time (ms) of the latest event let go; the state expires
 *                      {@code dedupe-retention} after it
 * @param retired       true once the process got an info completion; it must not invoke again
 */
public record ProcessProgress(long lastSequence, long lastTimestamp, boolean retired) {
}
