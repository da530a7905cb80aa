package io.isowatch.agent;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where an {@link AgentRuntime} records its history and how it ships it.
 *
 * @param agentId          the id every event carries; null for the spool's own (when it holds
 *                         events), else {@code <host>-<pid>-<start second>}
 * @param spoolDir         the durable Chronicle spool, resumed if it exists; null for none
 * @param historyOut       a Jepsen JSON-lines file to write the history to as well; null for none
 * @param bootstrapServers the Kafka cluster the spool is shipped to; null to keep it local
 * @param topic            the Kafka topic of history events
 * @param metricsPort      serve Prometheus metrics on this port (0: any free port); -1 for none
 */
public record AgentOptions(String agentId, Path spoolDir, Path historyOut, String bootstrapServers, String topic,
                           int metricsPort) {

    public AgentOptions {
        if (agentId != null && agentId.isEmpty()) {
            throw new IllegalArgumentException("the agent id must not be empty");
        }
        if (bootstrapServers != null && spoolDir == null) {
            throw new IllegalArgumentException("shipping to Kafka reads the durable spool: give a spool directory");
        }
        Objects.requireNonNull(topic, "topic");
        if (metricsPort < -1) {
            throw new IllegalArgumentException("metricsPort must be -1 (none), 0 (any) or a port, got " + metricsPort);
        }
    }
}
