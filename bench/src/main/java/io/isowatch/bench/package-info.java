/**
 * Benchmarks, outside the default build's tests: JMH micro-benchmarks of the checking core and
 * the recorder, a harness for the spool-to-Kafka shipping rate, and {@link io.isowatch.bench.StreamBenchmark},
 * the checker job end to end (in-JVM broker, local Flink cluster, rate-controlled generator;
 * {@code bench/stream-benchmark.sh}). Results and the commands that produce them are in
 * {@code BENCHMARKS.md}; {@code bench/check-benchmark.sh} times {@code isowatch check} end to end.
 *
 * <p>The stream harness reads the job's own metrics through a metric reporter registered in the
 * local cluster's configuration ({@link io.isowatch.bench.BenchMetricReporter}) and takes
 * detection delays from the alerts themselves, so its numbers are the job's, not estimates.
 */
package io.isowatch.bench;
