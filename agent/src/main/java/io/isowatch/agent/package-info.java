/**
 * The isowatch agent: it runs beside a database client, records each transaction's invocation
 * and completion as Jepsen history events ({@code recorder}), keeps them in a durable local
 * spool and ships them to Kafka ({@code transport}), and can drive checking workloads itself
 * ({@code workload}) against a real database or the embedded store ({@code client},
 * {@code store}), exporting Prometheus metrics ({@code metrics}). The client thread never waits
 * for the network: events go to the local log, and shipping happens on the agent's own thread.
 *
 * <p>{@link io.isowatch.agent.AgentRuntime} assembles these parts into one running agent (the
 * recorder over the spool and/or a history file, the shipper, the metrics server, and workload
 * runners that continue a resumed spool's numbering); {@code isowatch agent run} and
 * {@code isowatch demo} both run the agent through it.
 */
package io.isowatch.agent;
