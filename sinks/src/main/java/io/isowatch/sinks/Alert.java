package io.isowatch.sinks;

import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.FindingId;
import io.isowatch.explain.FindingJson;
import io.isowatch.explain.FindingText;
import io.isowatch.explain.Notation;
import io.isowatch.history.AtomTable;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * One finding on its way to the sinks, already rendered.
 *
 * <p>An alert holds text, not the core's {@link Finding}: the finding's keys and elements are
 * atoms of one JVM's {@link AtomTable}, while an alert crosses threads, operators and machines
 * (the Flink job serializes it between the checker and the sinks). {@link #of} renders once, on
 * the thread that owns the table; after that an alert is a plain immutable value. {@link #of}
 * makes a live alert; the checker marks one released at the end of its history with
 * {@link #released(Release)}.
 *
 * @param id                   the finding's stable id ({@link FindingId}): consumers de-duplicate by it
 * @param history              the history it was found in (the recording agent's id), or "" when
 *                             there is only one (a file)
 * @param type                 the anomaly's Elle name, e.g. {@code G2-item}
 * @param title                one line: the anomaly, the shape of the evidence and the history indices
 * @param models               the consistency models checked against, by Elle name, sorted
 * @param detectedAtMillis     when the checker proved it, in epoch milliseconds; the caller's clock
 *                             (the core has none)
 * @param detectionDelayMillis how long after the completion of the finding's last transaction it
 *                             was proven, in milliseconds; {@link #UNKNOWN_DELAY} when not known
 * @param explanation          the full, multi-line Elle-style explanation
 * @param findingJson          the finding as {@link FindingJson} writes it: transactions, steps and
 *                             edges of a cycle, the explanation
 * @param release              live, or released only when its history ended and why
 *                             ({@link Release}); with the latter the detection delay includes the
 *                             wait for the end
 * @param agents               in a history several agents record, the agents whose transactions
 *                             the finding names, sorted; empty otherwise
 */
public record Alert(String id, String history, String type, String title, List<String> models, long detectedAtMillis,
                    long detectionDelayMillis, String explanation, String findingJson, Release release,
                    List<String> agents) {

    /** The detection delay of an alert whose transactions carry no times. */
    public static final long UNKNOWN_DELAY = -1;

    public Alert {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(explanation, "explanation");
        Objects.requireNonNull(findingJson, "findingJson");
        Objects.requireNonNull(release, "release");
        models = List.copyOf(new TreeSet<>(models));
        agents = List.copyOf(new TreeSet<>(agents));
        if (detectionDelayMillis < UNKNOWN_DELAY) {
            throw new IllegalArgumentException("detectionDelayMillis must be >= 0, or -1 for unknown, got "
                    + detectionDelayMillis);
        }
    }

    /** An alert of a history one agent records (no {@link #agents}). */
    public Alert(String id, String history, String type, String title, List<String> models, long detectedAtMillis,
                 long detectionDelayMillis, String explanation, String findingJson, Release release) {
        this(id, history, type, title, models, detectedAtMillis, detectionDelayMillis, explanation, findingJson,
                release, List.of());
    }

    /** A live alert ({@link Release#LIVE}). */
    public Alert(String id, String history, String type, String title, List<String> models, long detectedAtMillis,
                 long detectionDelayMillis, String explanation, String findingJson) {
        this(id, history, type, title, models, detectedAtMillis, detectionDelayMillis, explanation, findingJson,
                Release.LIVE);
    }

    /**
     * Renders {@code finding} of a single-history run (a file, the demo) into an alert; its id
     * computed by {@link FindingId#of(Finding, AtomTable)}. Call it on the thread that owns {@code atoms}.
     */
    public static Alert of(Finding finding, Collection<String> models, long detectedAtMillis,
                           long detectionDelayMillis, AtomTable atoms) {
        return of(finding, "", models, detectedAtMillis, detectionDelayMillis, atoms);
    }

    /**
     * Renders {@code finding} of the named history into an alert; its id computed by
     * {@link FindingId#of(Finding, AtomTable, String)}. Call it on the thread that owns {@code atoms}.
     */
    public static Alert of(Finding finding, String history, Collection<String> models, long detectedAtMillis,
                           long detectionDelayMillis, AtomTable atoms) {
        return of(finding, history, models, detectedAtMillis, detectionDelayMillis, atoms, Notation.of(finding));
    }

    /** As {@link #of(Finding, String, Collection, long, long, AtomTable)}, in the workload's notation {@code n}. */
    public static Alert of(Finding finding, String history, Collection<String> models, long detectedAtMillis,
                           long detectionDelayMillis, AtomTable atoms, Notation n) {
        return new Alert(FindingId.of(finding, atoms, history), history, finding.type().elleName(),
                FindingText.title(finding, n), List.copyOf(models), detectedAtMillis, detectionDelayMillis,
                FindingText.render(finding, atoms, n), FindingJson.toJson(finding, atoms, n));
    }

    /**
     * Milliseconds from the completion of the finding's last transaction until
     * {@code nowEpochMillis}, or {@link #UNKNOWN_DELAY} when it names no transaction with a time.
     * Op times are taken as nanoseconds since the Unix epoch, as the agent's recorder writes
     * them; a delay that would be negative (clocks apart) counts as 0.
     */
    public static long delayMillis(Finding finding, long nowEpochMillis) {
        long last = -1;
        for (io.isowatch.anomaly.Txn t : finding.txns()) {
            last = Math.max(last, t.completion().time());
        }
        if (last < 0) {
            return UNKNOWN_DELAY;
        }
        return Math.max(0, nowEpochMillis - last / 1_000_000L);
    }

    /** This alert with {@code release} instead of its own. */
    public Alert released(Release release) {
        return new Alert(id, history, type, title, models, detectedAtMillis, detectionDelayMillis, explanation,
                findingJson, release, agents);
    }

    /** This alert naming the agents whose transactions its finding names. */
    public Alert recordedBy(Collection<String> agents) {
        return new Alert(id, history, type, title, models, detectedAtMillis, detectionDelayMillis, explanation,
                findingJson, release, List.copyOf(agents));
    }

    /** True when it was released only when its history ended ({@link Release#atEndOfHistory()}). */
    public boolean releasedAtEnd() {
        return release.atEndOfHistory();
    }

    /** True when {@link #detectionDelayMillis()} is known. */
    public boolean hasDetectionDelay() {
        return detectionDelayMillis != UNKNOWN_DELAY;
    }
}
