package io.isowatch.agent.workload;

import java.time.Duration;

/**
 * What a finished run did.
 *
 * @param txns      transactions completed (ok + fail + info), closing reads included
 * @param ok        committed
 * @param fail      definitely aborted
 * @param info      outcome unknown
 * @param processes distinct process ids used (concurrency plus one per info)
 * @param elapsed   wall-clock time of the run
 * @param closingReads of {@code txns}, closing reads: those run while the workload ran and those
 *                  at its end (see {@link WorkloadRunner}); they do not count against the
 *                  transaction limit
 */
public record WorkloadResult(long txns, long ok, long fail, long info, long processes, Duration elapsed,
                             long closingReads) {

    /** Completed transactions per second over the whole run. */
    public double txnPerSecond() {
        double s = elapsed.toNanos() / 1e9;
        return s == 0 ? 0 : txns / s;
    }
}
