/**
 * Serialization for the job: the Kafka record decoder, and an explicit {@code TypeSerializer}
 * with a {@code TypeSerializerSnapshot} for every type that travels between tasks or sits in
 * state. History events reuse the core's versioned binary codec, so the format in checkpoints is
 * the one the agent spools. String atoms are process-local: see {@link io.isowatch.job.serde.JobAtoms}.
 */
package io.isowatch.job.serde;
