package io.isowatch.ui.intake;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Follows the job's alerts topic from its beginning, handing each record's value (an
 * {@link io.isowatch.sinks.AlertJson} object) to an {@link AlertIntake}.
 *
 * <p>The console joins no consumer group and commits nothing: it assigns itself every partition
 * and reads each from the start, so any number of consoles can watch one topic without
 * disturbing each other or the job, and a restarted console shows the findings it showed before.
 * The topic's partitions are looked up again every {@value #DISCOVERY_MILLIS} ms, so a topic
 * created after the console started, or given more partitions, is followed too. Runs on one
 * daemon thread until {@link #close()}.
 */
public final class AlertsTopicFollower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AlertsTopicFollower.class);
    private static final long DISCOVERY_MILLIS = 10_000;
    private static final Duration POLL = Duration.ofMillis(200);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final AlertIntake intake;
    private final Thread thread;
    private final Set<TopicPartition> assigned = new HashSet<>();
    private volatile boolean running = true;
    private volatile long records;

    private AlertsTopicFollower(String bootstrapServers, String topic, AlertIntake intake) {
        this.topic = topic;
        this.intake = intake;
        this.consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.CLIENT_ID_CONFIG, "isowatch-ui",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
        this.thread = new Thread(this::run, "isowatch-ui-topic-" + topic);
        this.thread.setDaemon(true);
    }

    /** Starts following {@code topic} on the brokers {@code bootstrapServers}. */
    public static AlertsTopicFollower start(String bootstrapServers, String topic, AlertIntake intake) {
        AlertsTopicFollower f = new AlertsTopicFollower(bootstrapServers, topic, intake);
        f.thread.start();
        return f;
    }

    /** Records read and handed to the intake so far. */
    public long records() {
        return records;
    }

    private void run() {
        long nextDiscovery = 0;
        boolean warned = false;
        try {
            while (running) {
                if (System.currentTimeMillis() >= nextDiscovery) {
                    warned = discover(warned);
                    nextDiscovery = System.currentTimeMillis() + (assigned.isEmpty() ? 1_000 : DISCOVERY_MILLIS);
                }
                if (assigned.isEmpty()) {
                    Thread.sleep(POLL.toMillis());
                    continue;
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                    if (r.value() != null) {
                        intake.accept(new String(r.value(), StandardCharsets.UTF_8));
                    }
                    records++; // after the intake, so a caller that saw the count sees the record's effect
                }
            }
        } catch (WakeupException | InterruptedException e) {
            // close() asked us to stop.
        } catch (RuntimeException e) {
            LOG.error("stopped following the alerts topic {}: {}", topic, e.toString(), e);
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** Assigns partitions not yet followed, each from its beginning; returns whether the topic is missing. */
    private boolean discover(boolean warned) {
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic, Duration.ofSeconds(5));
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            infos = List.of();
        }
        if (infos == null || infos.isEmpty()) {
            if (!warned) {
                LOG.info("waiting for the alerts topic {} to exist", topic);
            }
            return true;
        }
        List<TopicPartition> fresh = new ArrayList<>();
        for (PartitionInfo p : infos) {
            TopicPartition tp = new TopicPartition(topic, p.partition());
            if (assigned.add(tp)) {
                fresh.add(tp);
            }
        }
        if (!fresh.isEmpty()) {
            consumer.assign(new ArrayList<>(assigned));
            consumer.seekToBeginning(fresh);
        }
        return false;
    }

    /** Stops following and closes the consumer. */
    @Override
    public void close() {
        running = false;
        // wakeup() ends a poll or a metadata wait at once; an interrupt would end them with an error.
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
