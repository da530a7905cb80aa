/**
 * The {@code isowatch} launcher (picocli): {@code check} gives Elle's verdict on recorded
 * histories with elle-cli's options and exit codes, {@code replay} gives the stream job's verdict
 * on the same files (through a broker and a Flink cluster inside the launcher's JVM) in check's
 * output, {@code gen} writes histories from a simulated store, {@code demo} runs clients of the
 * embedded store through the whole path (recorder, spool, shipper, Kafka, the checker job) live,
 * with the findings console, {@code job} runs the checker job on a local cluster against an
 * existing Kafka, {@code ui} serves the findings console for an alerts file or topic, and
 * {@code agent run} drives a workload through the agent's recorder, spool and shipper. The last
 * two, and the launcher pieces they share with the rest ({@code ExitCodes}, the error lines),
 * live in {@code io.isowatch.agentcli} (module {@code agent-cli}), which the agent image runs
 * without Flink. {@code demo} and {@code replay} run on the local pipeline (module
 * {@code local-pipeline}), as the stream benchmark does. Commands only wire the modules together;
 * the semantics live in {@code incremental-graph} (the engine), {@code history} (the model and
 * its codecs) and {@code explain} (the renderings).
 */
package io.isowatch.cli;
