package io.isowatch.sinks.kafka;

import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertJson;
import io.isowatch.sinks.AlertSink;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Produces each alert to the alerts topic: key = the finding id (UTF-8), value = the alert as
 * JSON ({@link AlertJson}, the same object the file sink writes a line of). Keying by id puts
 * every report of one finding on one partition, so consumers de-duplicate by key and a compacted
 * topic keeps one record per finding.
 *
 * <p>The producer is idempotent with {@code acks=all}. {@link #accept} hands the record to the
 * producer and returns; a record the producer finally fails to deliver is logged at WARN and
 * counted ({@link #failed()}), not thrown. {@link #flush()} waits for everything sent so far and
 * reports failures since the previous flush by throwing, which is what a checkpointing caller
 * wants before it commits; {@link #close()} flushes and closes without throwing for them.
 * Thread-safe.
 */
public final class KafkaAlertSink implements AlertSink {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaAlertSink.class);

    private final String topic;
    private final Producer<String, byte[]> producer;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<Exception> failureSinceFlush = new AtomicReference<>();
    private volatile boolean closed;

    public KafkaAlertSink(KafkaSinkOptions options) {
        this.topic = options.topic();
        Map<String, Object> config = new HashMap<>(options.producerProperties());
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) options.deliveryTimeout().toMillis());
        // delivery.timeout.ms must be at least linger.ms + request.timeout.ms.
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                (int) Math.min(30_000, options.deliveryTimeout().toMillis()));
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "isowatch-alerts");
        this.producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    @Override
    public void accept(Alert alert) {
        if (closed) {
            throw new IllegalStateException("the Kafka alerts sink for topic " + topic + " is closed");
        }
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, alert.id(), AlertJson.toBytes(alert));
        sent.incrementAndGet();
        try {
            producer.send(record, (metadata, error) -> {
                if (error == null) {
                    acknowledged.incrementAndGet();
                } else {
                    fail(alert, error);
                }
            });
        } catch (KafkaException e) {
            fail(alert, e);
        }
    }

    private void fail(Alert alert, Exception error) {
        failed.incrementAndGet();
        failureSinceFlush.compareAndSet(null, error);
        LOG.warn("alert {} ({}) was not delivered to Kafka topic {}: {}", alert.id(), alert.type(), topic,
                error.toString());
    }

    /**
     * Waits until every alert accepted so far is acknowledged or failed.
     *
     * @throws IllegalStateException when an alert failed since the previous flush (the cause is
     *                               the first such failure)
     */
    public void flush() {
        producer.flush();
        Exception failure = failureSinceFlush.getAndSet(null);
        if (failure != null) {
            throw new IllegalStateException("alerts were not delivered to Kafka topic " + topic + ": " + failure,
                    failure);
        }
    }

    /** Alerts handed to the producer. */
    public long sent() {
        return sent.get();
    }

    /** Alerts Kafka acknowledged (all in-sync replicas). */
    public long acknowledged() {
        return acknowledged.get();
    }

    /** Alerts the producer gave up on. */
    public long failed() {
        return failed.get();
    }

    /** Flushes what is buffered (failures are logged and counted) and closes the producer. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        producer.close(Duration.ofSeconds(30));
    }
}
