package io.isowatch.agent.transport;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Asks Kafka whether the shipper's topic exists, and says in one line what is wrong when it
 * cannot be shipped to: the topic is missing, the brokers do not answer, the agent may not see
 * it. The producer alone cannot tell these apart quickly (a send to a missing topic waits
 * {@code max.block.ms}, a minute by default, for metadata that never comes), so the shipper's
 * watchdog asks at start and while shipping is stalled. Each answer takes at most
 * {@link #TIMEOUT}. Used by one thread.
 */
final class TopicCheck implements AutoCloseable {

    /** How long Kafka has to answer before it counts as unreachable. */
    static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final String servers;
    private final String topic;
    private final Map<String, Object> config;
    private Admin admin;

    /**
     * @param clientProperties the producer's further settings; those an admin client knows
     *                         (security, SASL, SSL, ...) are used, so it connects as the producer does
     */
    TopicCheck(String servers, String topic, Map<String, String> clientProperties) {
        this.servers = servers;
        this.topic = topic;
        Map<String, Object> c = new HashMap<>();
        clientProperties.forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k) && !k.equals(AdminClientConfig.CLIENT_ID_CONFIG)) {
                c.put(k, v);
            }
        });
        c.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        c.put(AdminClientConfig.CLIENT_ID_CONFIG, "isowatch-shipper-check");
        c.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        c.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        this.config = Map.copyOf(c);
    }

    /** Null when the topic exists; else what is wrong, where, and what to do, in one line. */
    String problem() {
        try {
            if (admin == null) {
                admin = Admin.create(config);
            }
            Map<String, TopicDescription> found = admin.describeTopics(List.of(topic),
                    new DescribeTopicsOptions().timeoutMs((int) TIMEOUT.toMillis()))
                    .allTopicNames().get(TIMEOUT.toMillis() + 1_000, TimeUnit.MILLISECONDS);
            return found.containsKey(topic) ? null : missing();
        } catch (ExecutionException e) {
            return describe(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            return unreachable();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (KafkaException e) {
            // Admin.create: no resolvable bootstrap address, a bad security setting.
            return "cannot connect to Kafka at " + servers + " for topic '" + topic + "' (" + e.getMessage()
                    + "): check --bootstrap-servers";
        }
    }

    private String describe(Throwable cause) {
        if (cause instanceof UnknownTopicOrPartitionException) {
            return missing();
        }
        if (cause instanceof TimeoutException) {
            return unreachable();
        }
        if (cause instanceof AuthorizationException) {
            return "the agent may not use topic '" + topic + "' on " + servers + " (" + cause.getMessage()
                    + "): grant its principal Describe and Write on the topic";
        }
        if (cause instanceof AuthenticationException) {
            return "Kafka at " + servers + " refused the agent's credentials (" + cause.getMessage()
                    + "): check the producer's security settings";
        }
        return "cannot check topic '" + topic + "' on " + servers + ": " + cause;
    }

    private String missing() {
        return "topic '" + topic + "' does not exist on " + servers + ": create it (kafka-topics.sh --bootstrap-server "
                + servers + " --create --topic " + topic + ") or give the topic the job reads with --topic";
    }

    private String unreachable() {
        return "Kafka at " + servers + " does not answer (no reply about topic '" + topic + "' within "
                + TIMEOUT.toSeconds() + " s): check --bootstrap-servers and that the brokers are up";
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close(Duration.ZERO);
            admin = null;
        }
    }
}
