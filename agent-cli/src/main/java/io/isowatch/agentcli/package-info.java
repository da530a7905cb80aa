/**
 * The isowatch commands that run without Flink, and the launcher pieces every isowatch command
 * line shares: {@code agent run} drives a workload through the agent's recorder, spool and
 * shipper; {@code ui} serves the findings console for an alerts file or topic. {@link
 * io.isowatch.agentcli.AgentMain} offers just these two and is the agent image's entry point
 * ({@code isowatch-agent.jar}); the full launcher ({@code io.isowatch.cli.Main}) offers the same
 * classes beside check, replay, gen, demo and job, so each command has one implementation.
 * {@link io.isowatch.agentcli.Launcher} gives both launchers the same error lines and {@link
 * io.isowatch.agentcli.ExitCodes}.
 *
 * <p>Invariant: nothing here may reach Flink, RocksDB or the checker job (module {@code
 * stream-job}); {@code AgentJarIT} fails if the shaded jar holds any of them.
 */
package io.isowatch.agentcli;
