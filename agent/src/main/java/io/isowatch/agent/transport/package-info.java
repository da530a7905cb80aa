/**
 * Getting recorded events off the client's machine without slowing the client and without
 * losing any: a durable local spool ({@link io.isowatch.agent.transport.ChronicleHistoryLog},
 * a Chronicle Queue of {@link io.isowatch.history.codec.BinaryEventCodec binary events}) and a
 * shipper ({@link io.isowatch.agent.transport.KafkaShipper}) that tails it into Kafka.
 *
 * <p>Invariants:
 * <ul>
 *   <li>An append returns only once its event is in the memory-mapped spool file, so killing
 *       the agent loses no event whose recorder call returned. Appending never waits for the
 *       network.</li>
 *   <li>The spool's acknowledged position only ever covers events Kafka acknowledged
 *       ({@code acks=all}, idempotent producer); it is stored atomically in the spool directory
 *       and the shipper resumes after it. Roll files are deleted only once wholly before the
 *       stored position.</li>
 *   <li>Delivery is at-least-once. Every copy of an event carries the same identity (agent id
 *       and sequence, in the value and in the record headers) and the same bytes, so a consumer
 *       that keeps the first copy of each identity sees each event exactly once.</li>
 *   <li>An agent's events share a record key (the agent id), hence a partition, and arrive in
 *       spool order within a producer session; after a failed round or a restart the
 *       unacknowledged suffix is sent again, so copies of earlier events can follow later
 *       ones.</li>
 *   <li>A record that cannot be decoded is set aside in the spool's {@code quarantine.jsonl}
 *       (index, error, bytes) and skipped; the acknowledged position moves past it, so shipping
 *       never stops at it.</li>
 *   <li>A shipper that cannot ship says so within seconds (a missing topic, unreachable brokers,
 *       no progress), in one line naming the cause and the fix, again periodically while it lasts,
 *       and in the gauge {@code isowatch_agent_shipper_stalled}; it keeps retrying.</li>
 * </ul>
 *
 * <p>{@link io.isowatch.agent.transport.SpoolScan} reads a whole spool once (a restarted agent,
 * {@link io.isowatch.agent.transport.SpoolExport}).
 */
package io.isowatch.agent.transport;
