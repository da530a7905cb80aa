/**
 * The checker's pipeline on one machine: {@link io.isowatch.localpipeline.LocalPipeline} (the
 * in-JVM broker with the history topic, and the one place that builds the job options and the
 * checker job of a local run, for {@code isowatch demo}, {@code replay} and the stream benchmark)
 * and {@link io.isowatch.localpipeline.LocalFlink} (a Flink MiniCluster in this JVM, bound to one
 * address, which {@code isowatch job} also runs on), with the two metric reporters such a cluster
 * gets: the job's restart count for the launcher's job watch, and Prometheus on one address.
 */
package io.isowatch.localpipeline;
