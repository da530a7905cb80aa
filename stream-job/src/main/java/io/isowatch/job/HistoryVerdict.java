package io.isowatch.job;

import io.isowatch.checker.Verdict;
import io.isowatch.explain.VerdictCodec;
import io.isowatch.history.AtomTable;

import java.util.Objects;

/**
 * The job's verdict on one history at the end of a bounded input, typed, so that whoever takes it
 * ({@code isowatch replay}, the demo, a test) renders it with the core's own renderers, exactly as
 * {@code check} renders its verdict.
 *
 * <p>The table is the verdict's own: nothing writes to it once the record exists, so the record
 * may cross threads. {@link #of} makes such a copy from the checker's table, which keeps growing.
 *
 * @param history the history (agent) the verdict is on
 * @param verdict the checker's verdict at the end of the history
 * @param atoms   names the verdict's string keys and values
 */
public record HistoryVerdict(String history, Verdict verdict, AtomTable atoms) {

    public HistoryVerdict {
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(atoms, "atoms");
    }

    /** The verdict, re-coded from the checker's table {@code from} into a table of its own. */
    public static HistoryVerdict of(String history, Verdict verdict, AtomTable from) {
        AtomTable own = new AtomTable();
        return new HistoryVerdict(history, VerdictCodec.copy(verdict, from, own), own);
    }
}
