package io.isowatch.sinks.kafka;

import io.isowatch.sinks.SinkOptions;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Options of a {@link KafkaAlertSink}. The producer always runs with
 * {@code enable.idempotence=true} and {@code acks=all}; those settings are not options.
 *
 * @param bootstrapServers   the Kafka cluster
 * @param topic              the alerts topic; default {@value #DEFAULT_TOPIC}
 * @param deliveryTimeout    how long the producer retries a record before it counts as failed
 *                           ({@code delivery.timeout.ms}); default 2 min
 * @param producerProperties further producer settings (security, client id, compression, ...); the
 *                           settings the sink owns are rejected here
 */
public record KafkaSinkOptions(String bootstrapServers, String topic, Duration deliveryTimeout,
                               Map<String, String> producerProperties) implements SinkOptions {

    /** The topic DESIGN.md names for alerts. */
    public static final String DEFAULT_TOPIC = "isowatch.alerts";

    /** Producer settings the sink owns. */
    public static final Set<String> RESERVED = Set.of("bootstrap.servers", "enable.idempotence", "acks",
            "key.serializer", "value.serializer", "transactional.id");

    public KafkaSinkOptions {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(deliveryTimeout, "deliveryTimeout");
        if (topic.isBlank()) {
            throw new IllegalArgumentException("the alerts topic must be named");
        }
        if (deliveryTimeout.isNegative() || deliveryTimeout.isZero()) {
            throw new IllegalArgumentException("deliveryTimeout must be positive, got " + deliveryTimeout);
        }
        producerProperties = Map.copyOf(producerProperties);
        for (String key : producerProperties.keySet()) {
            if (RESERVED.contains(key)) {
                throw new IllegalArgumentException("producer setting " + key + " is set by the alerts sink itself");
            }
        }
    }

    /** Defaults for the cluster at {@code bootstrapServers}, alerts to {@value #DEFAULT_TOPIC}. */
    public static KafkaSinkOptions of(String bootstrapServers) {
        return new KafkaSinkOptions(bootstrapServers, DEFAULT_TOPIC, Duration.ofMinutes(2), Map.of());
    }

    public KafkaSinkOptions withTopic(String value) {
        return new KafkaSinkOptions(bootstrapServers, value, deliveryTimeout, producerProperties);
    }

    public KafkaSinkOptions withDeliveryTimeout(Duration value) {
        return new KafkaSinkOptions(bootstrapServers, topic, value, producerProperties);
    }

    public KafkaSinkOptions withProducerProperties(Map<String, String> value) {
        return new KafkaSinkOptions(bootstrapServers, topic, deliveryTimeout, value);
    }

    @Override
    public KafkaAlertSink open() {
        return new KafkaAlertSink(this);
    }
}
