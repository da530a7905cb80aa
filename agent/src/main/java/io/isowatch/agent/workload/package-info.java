/**
 * Elle-style workloads (Kingsbury and Alvaro, "Elle", PVLDB 14(3), 2021): transactions of reads
 * and writes of unique values per key (list-append or rw-register), keys retired after a number of
 * writes and replaced by fresh ones, hot keys by an exponential distribution. The
 * {@link io.isowatch.agent.workload.WorkloadRunner} drives them on real threads against any
 * {@link io.isowatch.agent.client.DatabaseClient}, at a rate and for a duration, recording each
 * transaction through the {@link io.isowatch.agent.recorder.HistoryRecorder}.
 */
package io.isowatch.agent.workload;
