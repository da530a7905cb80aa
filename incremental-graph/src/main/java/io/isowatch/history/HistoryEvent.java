package io.isowatch.history;

import java.util.Objects;

/**
 * One history event as it travels from an agent to the checker: the op, plus the identity that
 * lets a consumer drop a re-sent copy.
 *
 * <p>{@code (source, sequence)} is unique: {@code source} names the agent that recorded the
 * event and {@code sequence} counts that agent's events from 0 without gaps. A shipper that sends
 * an event twice (after a restart, say) sends it with the same identity.
 *
 * @param source   the recording agent's id
 * @param sequence the agent's event counter
 * @param op       the Jepsen op
 */
public record HistoryEvent(String source, long sequence, Op op) {

    public HistoryEvent {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(op, "op");
        if (source.isEmpty()) {
            throw new IllegalArgumentException("an event's source (agent id) must not be empty");
        }
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence must be >= 0, got " + sequence);
        }
    }
}
