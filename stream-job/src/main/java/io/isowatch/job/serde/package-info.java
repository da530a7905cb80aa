/**
 * Serialization for the job: the Kafka record decoder, and an explicit {@code TypeSerializer}
 * with a {@code TypeSerializerSnapshot} for every type that travels between tasks or sits in
 * state. History events reuse the core's versioned binary codec, so the format in checkpoints is
 * the one the agent spools. No atom table is shared: an event carries the names of its string
 * atoms ({@link io.isowatch.history.HistoryEvent#strings}), and the checker re-codes them into the
 * table of its history.
 */
package io.isowatch.job.serde;
