/**
 * Real components for other modules' tests, shared so each is wrapped once: an in-JVM KRaft Kafka
 * broker. Test scope only.
 */
package io.isowatch.testkit;
