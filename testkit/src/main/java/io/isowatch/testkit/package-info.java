/**
 * Helpers for other modules' tests, used at test scope only:
 * {@link io.isowatch.testkit.ListeningSockets}, the kernel's list of the sockets this JVM listens
 * on, with which the tests check that nothing listens beyond loopback, and
 * {@link io.isowatch.testkit.ChildJvm}, the command line of a second JVM that a fault test kills.
 * The in-JVM Kafka broker the tests share is {@code io.isowatch.localkafka.InJvmKafka}.
 */
package io.isowatch.testkit;
