/**
 * Alerts produced to the alerts topic, one finding per record, keyed by its stable id.
 *
 * <p>Delivery is at least once: the producer is idempotent with {@code acks=all}, so its own
 * retries never duplicate a record, but a job that restarts from a checkpoint may report a
 * finding again. Consumers de-duplicate by the record key (= {@link io.isowatch.anomaly.FindingId}),
 * which is the same for every report of the same anomaly; a repeat is therefore harmless, and on
 * a compacted topic it even collapses. Exactly-once into Kafka across restarts, if wanted, is the
 * job's concern (a transactional sink committed with its checkpoints).
 */
package io.isowatch.sinks.kafka;
