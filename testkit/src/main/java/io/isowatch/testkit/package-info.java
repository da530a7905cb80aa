/**
 * Real components for other modules' tests, shared so each is wrapped once: an in-JVM KRaft Kafka
 * broker (also the broker of {@code demo} and {@code replay}), listening on one address only, and
 * {@link io.isowatch.testkit.ListeningSockets}, the kernel's list of the sockets this JVM listens
 * on, with which the tests check that nothing listens beyond loopback.
 */
package io.isowatch.testkit;
