package io.isowatch.agent.workload;

import java.time.Duration;

/**
 * A snapshot of a running workload, handed to the progress callback.
 *
 * @param elapsed      time since the run started
 * @param txns         transactions completed so far, closing reads included
 * @param ok           of which committed
 * @param fail         of which definitely aborted
 * @param info         of which with unknown outcome
 * @param txnPerSecond completions per second since the previous report
 * @param backlog      events not yet shipped (the backlog supplier's answer), or -1 without one
 * @param finished     true for the one report made after the run ended (its rate is the run's average)
 */
public record WorkloadProgress(Duration elapsed, long txns, long ok, long fail, long info, double txnPerSecond,
                               long backlog, boolean finished) {
}
