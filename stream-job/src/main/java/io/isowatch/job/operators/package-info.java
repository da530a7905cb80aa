/**
 * One class per Flink operator. Operators adapt core objects and keep their state in Flink state
 * (descriptors built in {@code open()}, names as kebab-case constants, each listed in
 * docs/state.md with its clearing path). Time comes from watermarks only; no operator reads the
 * wall clock.
 */
package io.isowatch.job.operators;
