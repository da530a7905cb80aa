package io.isowatch.job;

import io.isowatch.history.HistoryEvent;
import io.isowatch.history.codec.HistoryEventJson;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Input the job could not use, kept with enough context to find and fix it. Nothing malformed
 * fails the job or disappears: it becomes one of these on the dead-letter output.
 *
 * @param kind      why the input was rejected
 * @param error     what is wrong, naming the field and the offending value where there is one
 * @param raw       the input as text: the Kafka record's value for a malformed record, the
 *                  rendered event for a protocol fault; creators cut it with {@link #clip}
 * @param topic     the Kafka topic it came from, or "" when it did not come from Kafka
 * @param partition the Kafka partition, or -1
 * @param offset    the Kafka offset, or -1
 */
public record DeadLetter(Kind kind, String error, String raw, String topic, int partition, long offset) {

    /** Longer raw text is cut here, with a marker, so one huge record cannot bloat the output. */
    public static final int MAX_RAW_CHARS = 16 * 1024;

    /** The reasons input is rejected. */
    public enum Kind {
        /** The record is not a readable history event (bad JSON, a missing or ill-typed field). */
        MALFORMED_RECORD,
        /** A process invoked again before its pending invocation completed. */
        DOUBLE_INVOCATION,
        /** A process began or completed a transaction after an info completion (Jepsen retires such processes). */
        PROCESS_REUSED_AFTER_INFO,
        /** The checker rejected the event: it breaks the history's order or protocol. */
        MALFORMED_HISTORY,
        /** Two agents of one history recorded the same process: processes must be the agents' own. */
        PROCESS_SHARED_BY_AGENTS,
        /** The event arrived later than max-out-of-orderness allows; it was not checked. */
        LATE_EVENT
    }

    public DeadLetter {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(raw, "raw");
    }

    /** A dead letter that did not come from a Kafka record. */
    public static DeadLetter of(Kind kind, String error, String raw) {
        return new DeadLetter(kind, error, clip(raw), "", -1, -1);
    }

    /** A dead letter for a history event, which it carries rendered ({@link #render}). */
    public static DeadLetter of(Kind kind, String error, HistoryEvent event) {
        return of(kind, error, render(event));
    }

    /**
     * The event as the history topic's JSON record writes it (a Jepsen op map with {@code agent}
     * and {@code seq}, {@link HistoryEventJson}): readable, and fit to be sent to the topic again.
     */
    public static String render(HistoryEvent event) {
        return new String(new HistoryEventJson().render(event, event.atoms()), StandardCharsets.UTF_8);
    }

    /** Cuts text longer than {@link #MAX_RAW_CHARS}, marking how much was left out. */
    public static String clip(String raw) {
        if (raw.length() <= MAX_RAW_CHARS) {
            return raw;
        }
        return raw.substring(0, MAX_RAW_CHARS) + "...[" + (raw.length() - MAX_RAW_CHARS) + " more chars]";
    }
}
