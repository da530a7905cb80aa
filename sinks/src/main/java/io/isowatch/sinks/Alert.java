package io.isowatch.sinks;

import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.FindingId;
import io.isowatch.explain.FindingText;
import io.isowatch.history.AtomTable;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * One finding on its way to the sinks.
 *
 * @param finding          what the checker proved
 * @param id               its stable id ({@link FindingId}): consumers de-duplicate by it
 * @param models           the consistency models checked against, by Elle name, sorted
 * @param detectedAtMillis when the checker proved it, in epoch milliseconds; the caller's clock
 *                         (the core has none)
 * @param detectionDelayMillis how long after the completion of the finding's last transaction it
 *                         was proven, in milliseconds; {@link #UNKNOWN_DELAY} when not known
 * @param atoms            the table the finding's keys and elements are atoms of. Not
 *                         thread-safe: sinks render on the thread that calls
 *                         {@link AlertSink#accept}, which must be the one feeding the table or
 *                         be ordered after it
 */
public record Alert(Finding finding, String id, List<String> models, long detectedAtMillis,
                    long detectionDelayMillis, AtomTable atoms) {

    /** The detection delay of an alert whose transactions carry no times. */
    public static final long UNKNOWN_DELAY = -1;

    public Alert {
        Objects.requireNonNull(finding, "finding");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(atoms, "atoms");
        models = List.copyOf(new TreeSet<>(models));
        if (detectionDelayMillis < UNKNOWN_DELAY) {
            throw new IllegalArgumentException("detectionDelayMillis must be >= 0, or -1 for unknown, got "
                    + detectionDelayMillis);
        }
    }

    /** An alert for {@code finding}, its id computed by {@link FindingId#of(Finding, AtomTable)}. */
    public static Alert of(Finding finding, Collection<String> models, long detectedAtMillis,
                           long detectionDelayMillis, AtomTable atoms) {
        return new Alert(finding, FindingId.of(finding, atoms), List.copyOf(models), detectedAtMillis,
                detectionDelayMillis, atoms);
    }

    /** The anomaly's Elle name, e.g. {@code G2-item}. */
    public String type() {
        return finding.type().elleName();
    }

    /** One line: the anomaly, the shape of the evidence and the history indices. */
    public String title() {
        return FindingText.title(finding);
    }

    /** The full, multi-line explanation. */
    public String explanation() {
        return FindingText.render(finding, atoms);
    }

    /** True when {@link #detectionDelayMillis()} is known. */
    public boolean hasDetectionDelay() {
        return detectionDelayMillis != UNKNOWN_DELAY;
    }
}
