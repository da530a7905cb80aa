/**
 * Elle-style workloads (Kingsbury and Alvaro, "Elle", PVLDB 14(3), 2021): transactions of reads
 * and writes of unique values per key (list-append or rw-register), keys retired after a number of
 * writes and replaced by fresh ones, hot keys by an exponential distribution. The
 * {@link io.isowatch.agent.workload.WorkloadRunner} drives them on real threads against any
 * {@link io.isowatch.agent.client.DatabaseClient}, at a rate and for a duration, recording each
 * transaction through the {@link io.isowatch.agent.recorder.HistoryRecorder}. A retired key is
 * read once more after every transaction generated with a write to it has completed (a closing
 * read), and every key written is read so at the end, so that no append is left for the checker
 * to place by absence (decision 0009).
 */
package io.isowatch.agent.workload;
