/**
 * Benchmarks, outside the default build's tests: JMH micro-benchmarks of the checking core and
 * the recorder, and a harness for the spool-to-Kafka shipping rate. Results and the commands that
 * produce them are in {@code BENCHMARKS.md}; {@code bench/check-benchmark.sh} times
 * {@code isowatch check} end to end.
 */
package io.isowatch.bench;
