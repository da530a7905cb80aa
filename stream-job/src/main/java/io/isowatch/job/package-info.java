/**
 * The isowatch Flink job. {@link io.isowatch.job.CheckerJob} wires the data path of docs/design.md:
 * the source decodes the agents' history records (a record that is no event becomes a dead
 * letter); one operator per history ({@code CheckTransactionsFunction}, keyed by agent; decision
 * 0010) drops re-sent copies, puts each history's events back in order, checks that each process
 * invokes and completes in turn, and feeds the history, in index order, to one of the core's
 * {@code IncrementalChecker}s, which keeps the traces, the dependency graph and the cycle search
 * together (docs/decisions/0005).
 * Each finding leaves as an {@link io.isowatch.sinks.Alert}; at the end of a bounded input the
 * checker settles and emits a typed {@link io.isowatch.job.HistoryVerdict} per history.
 *
 * <p>Invariants: options come from one {@link io.isowatch.job.JobOptions} record; every
 * operator has a fixed uid from {@link io.isowatch.job.OperatorIds}; nothing falls back to Kryo
 * ({@code pipeline.generic-types: false}); nothing is dropped silently: malformed records and
 * protocol faults become {@link io.isowatch.job.DeadLetter}s, late events go to their own output,
 * and both are counted in Flink metrics.
 */
package io.isowatch.job;
