package io.isowatch.job;

import io.isowatch.config.Durations;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The job's start-up check: the brokers answer and the job's topics exist, within
 * {@code kafka-timeout}. Left to Flink, an unreachable broker surfaces a minute later as a
 * stack trace and a restart, and a missing alerts topic as a failure at the first alert; here it
 * is one line naming the broker or topic, before anything starts.
 */
public final class KafkaPreflight {

    private KafkaPreflight() {
    }

    /**
     * Checks the brokers and the history, alerts and dead-letter topics.
     *
     * @throws IllegalStateException with one line naming what is missing and how to fix it
     */
    public static void check(JobOptions options) {
        Duration timeout = options.kafkaTimeout();
        int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
        Map<String, Object> config = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        try (Admin admin = Admin.create(config)) {
            get(admin.describeCluster().nodes(), timeout, options);
            Set<String> topics = new LinkedHashSet<>(List.of(options.historyTopic(), options.alertsTopic(),
                    options.deadLetterTopic()));
            List<String> missing = new ArrayList<>();
            admin.describeTopics(topics).topicNameValues().forEach((topic, description) -> {
                if (isMissing(description, timeout, options)) {
                    missing.add(topic);
                }
            });
            if (!missing.isEmpty()) {
                throw new IllegalStateException("topic(s) " + String.join(", ", missing) + " do not exist on "
                        + options.bootstrapServers() + "; create them (kafka-topics.sh --create --topic NAME) or name "
                        + "others with --" + JobOptions.HISTORY_TOPIC + ", --" + JobOptions.ALERTS_TOPIC + " and --"
                        + JobOptions.DEAD_LETTER_TOPIC);
            }
        }
    }

    private static boolean isMissing(KafkaFuture<?> description, Duration timeout, JobOptions options) {
        try {
            get(description, timeout, options);
            return false;
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return true;
            }
            throw e;
        }
    }

    private static <T> T get(KafkaFuture<T> future, Duration timeout, JobOptions options) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw unreachable(options, "no answer");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UnknownTopicOrPartitionException) {
                throw new IllegalStateException(cause.getMessage(), cause);
            }
            if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw unreachable(options, "no answer");
            }
            throw unreachable(options, String.valueOf(cause));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking Kafka at " + options.bootstrapServers(), e);
        }
    }

    private static IllegalStateException unreachable(JobOptions options, String why) {
        return new IllegalStateException("cannot reach Kafka at " + options.bootstrapServers() + " within "
                 + Durations.format(options.kafkaTimeout()) + " (" + why + "); is the broker running and is "
                + "--" + JobOptions.BOOTSTRAP_SERVERS + " right? (--" + JobOptions.KAFKA_TIMEOUT + " sets the wait)");
    }
}
