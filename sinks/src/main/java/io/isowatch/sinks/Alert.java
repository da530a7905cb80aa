package io.isowatch.sinks;

import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.FindingId;
import io.isowatch.explain.FindingJson;
import io.isowatch.explain.FindingText;
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
 * the thread that owns the table; after that an alert is a plain immutable value.
 *
 * @param id                   the finding's stable id ({@link FindingId}): consumers de-duplicate by it
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
 */
public record Alert(String id, String type, String title, List<String> models, long detectedAtMillis,
                    long detectionDelayMillis, String explanation, String findingJson) {

    /** The detection delay of an alert whose transactions carry no times. */
    public static final long UNKNOWN_DELAY = -1;

    public Alert {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(explanation, "explanation");
        Objects.requireNonNull(findingJson, "findingJson");
        models = List.copyOf(new TreeSet<>(models));
        if (detectionDelayMillis < UNKNOWN_DELAY) {
            throw new IllegalArgumentException("detectionDelayMillis must be >= 0, or -1 for unknown, got "
                    + detectionDelayMillis);
        }
    }

    /**
     * Renders {@code finding} into an alert; its id computed by {@link FindingId#of(Finding, AtomTable)}.
     * Call it on the thread that owns {@code atoms}.
     */
    public static Alert of(Finding finding, Collection<String> models, long detectedAtMillis,
                           long detectionDelayMillis, AtomTable atoms) {
        return new Alert(FindingId.of(finding, atoms), finding.type().elleName(), FindingText.title(finding),
                List.copyOf(models), detectedAtMillis, detectionDelayMillis, FindingText.render(finding, atoms),
                FindingJson.toJson(finding, atoms));
    }

    /** True when {@link #detectionDelayMillis()} is known. */
    public boolean hasDetectionDelay() {
        return detectionDelayMillis != UNKNOWN_DELAY;
    }
}
