/**
 * The agent's Prometheus metrics (client_java 1.x): events recorded, transactions by outcome,
 * transaction latency, events shipped, ship errors and the spool backlog, plus the HTTP
 * exporter. Metric names live in {@link io.isowatch.agent.metrics.AgentMetricNames}; labels
 * are bounded (only the outcome), never a key, a process or a transaction id.
 */
package io.isowatch.agent.metrics;
