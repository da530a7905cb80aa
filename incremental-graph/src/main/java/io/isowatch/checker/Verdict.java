package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;

import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/**
 * The outcome of checking a history, shaped like Elle's result map.
 *
 * @param valid        true, false, or unknown
 * @param anomalyTypes the reportable anomaly types found, sorted by name (Elle's {@code :anomaly-types})
 * @param anomalies    the findings of each reportable type
 * @param not          the weakest models the findings rule out (Elle's {@code :not})
 * @param alsoNot      every other model they rule out (Elle's {@code :also-not})
 * @param stats        counts of what was checked
 */
public record Verdict(Validity valid, List<AnomalyType> anomalyTypes, Map<AnomalyType, List<Finding>> anomalies,
                      SortedSet<String> not, SortedSet<String> alsoNot, Stats stats) {

    /**
     * @param txns      transactions completed (ok, info and fail)
     * @param ok        of which committed
     * @param info      of which with unknown outcome
     * @param fail      of which aborted
     * @param ops       history events (invocations and completions)
     * @param edges     dependency edges inferred
     */
    public record Stats(long txns, long ok, long info, long fail, long ops, long edges) {
    }
}
