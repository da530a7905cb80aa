/**
 * The {@code isowatch} launcher (picocli): {@code check} gives Elle's verdict on recorded
 * histories with elle-cli's options and exit codes, {@code gen} writes histories from a simulated
 * store, {@code demo} checks clients of the embedded store live, and {@code agent run} drives a
 * workload through the agent's recorder, spool and shipper. Commands only wire the core and the
 * agent together; the semantics live in {@code incremental-graph}.
 */
package io.isowatch.cli;
