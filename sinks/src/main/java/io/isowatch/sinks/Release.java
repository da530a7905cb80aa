package io.isowatch.sinks;

import io.isowatch.anomaly.AnomalyType;

import java.util.Objects;

/**
 * When a finding left the checker: live, as soon as its evidence was seen, or only when its
 * history ended, and then why.
 *
 * <p>Most findings are monotone and leave live. Those resting on an absence — a value nobody
 * wrote, an append nobody read — are final only once no event can come any more, so the checker
 * releases them when the history ends (decision 0009); their detection delay then measures the
 * wait for the end, not the checker. Consumers tell the two apart by {@link #atEndOfHistory()}.
 *
 * @param atEndOfHistory true when released by the end of the history (settle time)
 * @param reason         why it had to wait for the end, one line; empty when live
 */
public record Release(boolean atEndOfHistory, String reason) {

    /** Released as soon as its evidence was seen. */
    public static final Release LIVE = new Release(false, "");

    /** {@link #atEndOfHistory()} as the alert JSON's {@code released} field writes it. */
    public static final String LIVE_NAME = "live";
    public static final String END_OF_HISTORY_NAME = "end-of-history";

    /** The reason of a garbage read released at the end. */
    public static final String GARBAGE_READ_REASON = "reads a value nobody wrote: that absence is final only when the"
            + " history ends, as a writer still pending or arriving late could claim it (decision 0009); a history"
            + " that declares the agent protocol, as isowatch agents do, has it reported as the read completes"
            + " (decision 0016)";
    /** The reason of a cycle found while the history was settled. */
    public static final String SETTLED_CYCLE_REASON = "a cycle closed while the history was settled at its end, through"
            + " an edge that rests on an absence (an append nobody read placed after the last one read, or a version"
            + " order inferred then), final only when the history ends (decision 0009)";
    /** The reason of any other finding released at the end. */
    public static final String SETTLED_REASON = "found while the history was settled at its end: it rests on an"
            + " absence that is final only when the history ends (decision 0009)";

    public Release {
        Objects.requireNonNull(reason, "reason");
        if (atEndOfHistory == reason.isEmpty()) {
            throw new IllegalArgumentException(atEndOfHistory
                    ? "a finding released at the end of its history needs a reason; use Release.atEnd(type)"
                    : "a live finding has no release reason, got \"" + reason + "\"; use Release.LIVE");
        }
    }

    /** The release of a finding of {@code type} reported while its history was settled at the end. */
    public static Release atEnd(AnomalyType type) {
        if (type == AnomalyType.GARBAGE_READ) {
            return new Release(true, GARBAGE_READ_REASON);
        }
        return new Release(true, type.isCycle() ? SETTLED_CYCLE_REASON : SETTLED_REASON);
    }

    /** {@value #LIVE_NAME} or {@value #END_OF_HISTORY_NAME}. */
    public String name() {
        return atEndOfHistory ? END_OF_HISTORY_NAME : LIVE_NAME;
    }

    /**
     * The release a reader of the alert JSON meets: {@code name} as {@link #name()} writes it
     * (absent, null or unknown reads as live, the only kind alerts before the field had), and the
     * reason written beside it (a newer writer's reason is kept as it is).
     */
    public static Release read(String name, String reason) {
        if (!END_OF_HISTORY_NAME.equals(name)) {
            return LIVE;
        }
        return new Release(true, reason == null || reason.isEmpty() ? SETTLED_REASON : reason);
    }
}
