/**
 * The isowatch Flink job. This version wires stage 1 of the data path (see DESIGN.md): decode the
 * agents' history records, drop re-sent copies, put each process's events back in order and
 * pair every completion with its invocation. Later stages (per-key version traces, the
 * dependency graph, cycle search and findings) consume {@link io.isowatch.job.CompletedTxn}.
 *
 * <p>Invariants: options come from one {@link io.isowatch.job.JobOptions} record; every
 * operator has a fixed uid from {@link io.isowatch.job.OperatorIds}; nothing falls back to Kryo
 * ({@code pipeline.generic-types: false}); nothing is dropped silently: malformed records and
 * protocol faults become {@link io.isowatch.job.DeadLetter}s, late events go to their own output,
 * and both are counted in Flink metrics.
 */
package io.isowatch.job;
