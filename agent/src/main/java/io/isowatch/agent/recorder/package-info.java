/**
 * Recording transactions as Jepsen history events.
 * {@link io.isowatch.agent.recorder.HistoryRecorder} stamps each invocation and completion with
 * the agent's id, a dense sequence number (also the op's index) and a time, enforces the process
 * discipline (one open transaction per process; a process that got {@code info} never invokes
 * again), and appends to an {@link io.isowatch.agent.recorder.EventLog}: the Chronicle spool, a
 * Jepsen JSON-lines file, memory, or several at once through a tee. Recording never waits on the
 * network; shipping to Kafka happens elsewhere, from the spool. {@code retireKey} records a
 * closing read of a key once every transaction writing it has completed.
 *
 * <p>Several agents may record one named history ({@code Builder.history(name, member)}); the
 * one rule that keeps their processes and written values apart, member M owning
 * {@code M × 10⁹ + n}, is {@link io.isowatch.agent.recorder.HistoryMember}'s (decision 0021).
 */
package io.isowatch.agent.recorder;
