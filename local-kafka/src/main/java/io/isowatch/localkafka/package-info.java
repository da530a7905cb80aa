/**
 * A single-node KRaft broker inside the JVM ({@link io.isowatch.localkafka.InJvmKafka}), wrapped
 * once around Kafka's own test kit: the broker of the local pipeline ({@code isowatch demo},
 * {@code replay}, the stream benchmark) and the real Kafka of the other modules' tests. It
 * listens on one address, 127.0.0.1 unless asked otherwise, so that nobody on the network can
 * write forged history events to it.
 */
package io.isowatch.localkafka;
