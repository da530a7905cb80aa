package io.isowatch.agent;

import io.isowatch.agent.recorder.HistoryMember;
import io.isowatch.agent.transport.RecordFormat;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where an {@link AgentRuntime} records its history and how it ships it.
 *
 * @param agentId          the id every event carries; null for the spool's own (when it holds
 *                         events), else {@code <history>-<member>} in a shared history, else
 *                         {@code <host>-<pid>-<start second>}
 * @param spoolDir         the durable Chronicle spool, resumed if it exists; null for none
 * @param historyOut       a Jepsen JSON-lines file to write the history to as well; null for none
 * @param bootstrapServers the Kafka cluster the spool is shipped to; null to keep it local
 * @param topic            the Kafka topic of history events
 * @param metricsPort      serve Prometheus metrics on this port (0: any free port); -1 for none
 * @param recordFormat     how the shipper writes each event into its Kafka record
 * @param metricsAddress   the address metrics are served on: loopback unless the user asks for another
 * @param member           this agent's place in a history several agents record together (issue 37);
 *                         null for the agent's own history
 * @param clockOffset      shifts every recorded time (a test and diagnostic aid; may be negative)
 */
public record AgentOptions(String agentId, Path spoolDir, Path historyOut, String bootstrapServers, String topic,
                           int metricsPort, RecordFormat recordFormat, InetAddress metricsAddress,
                           HistoryMember member, Duration clockOffset) {

    /** Options of an agent recording its own history, with its own clock. */
    public AgentOptions(String agentId, Path spoolDir, Path historyOut, String bootstrapServers, String topic,
                        int metricsPort, RecordFormat recordFormat, InetAddress metricsAddress) {
        this(agentId, spoolDir, historyOut, bootstrapServers, topic, metricsPort, recordFormat, metricsAddress, null,
                Duration.ZERO);
    }

    /** Options shipping records in the default format (binary), metrics (if any) on 127.0.0.1. */
    public AgentOptions(String agentId, Path spoolDir, Path historyOut, String bootstrapServers, String topic,
                        int metricsPort) {
        this(agentId, spoolDir, historyOut, bootstrapServers, topic, metricsPort, RecordFormat.BINARY);
    }

    /** Options serving metrics (if any) on 127.0.0.1. */
    public AgentOptions(String agentId, Path spoolDir, Path historyOut, String bootstrapServers, String topic,
                        int metricsPort, RecordFormat recordFormat) {
        this(agentId, spoolDir, historyOut, bootstrapServers, topic, metricsPort, recordFormat,
                InetAddress.getLoopbackAddress());
    }

    public AgentOptions {
        if (agentId != null && agentId.isEmpty()) {
            throw new IllegalArgumentException("the agent id must not be empty");
        }
        if (bootstrapServers != null && spoolDir == null) {
            throw new IllegalArgumentException("shipping to Kafka reads the durable spool: give a spool directory");
        }
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(recordFormat, "recordFormat");
        Objects.requireNonNull(metricsAddress, "metricsAddress");
        Objects.requireNonNull(clockOffset, "clockOffset");
        if (metricsPort < -1) {
            throw new IllegalArgumentException("metricsPort must be -1 (none), 0 (any) or a port, got " + metricsPort);
        }
    }
}
