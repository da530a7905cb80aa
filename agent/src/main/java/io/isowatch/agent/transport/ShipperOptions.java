package io.isowatch.agent.transport;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Options of a {@link KafkaShipper}. Acknowledgement is not among them: the producer always
 * runs with {@code enable.idempotence=true} and {@code acks=all}, because the shipper's
 * guarantees (no loss, per-process order, at-least-once with stable identity) depend on both.
 *
 * @param linger             how long the producer waits to fill a batch ({@code linger.ms}); default 5 ms
 * @param batchSizeBytes     the producer's per-partition batch size ({@code batch.size}); default 256 KiB
 * @param compression        {@code compression.type}: none, gzip, snappy, lz4 or zstd; default lz4
 * @param maxEventsPerRound  events sent between two waits for Kafka's acknowledgement; the spool
 *                           position advances once per round. Default 20,000
 * @param deliveryTimeout    how long the producer retries a record before the round fails and is
 *                           re-sent from the acknowledged position ({@code delivery.timeout.ms});
 *                           default 2 min
 * @param maxBlock           how long a send may wait for metadata or buffer space
 *                           ({@code max.block.ms}); default 1 min
 * @param retryBackoff       the pause after a failed round, doubled after each further failure up
 *                           to {@code maxRetryBackoff}; default 500 ms
 * @param maxRetryBackoff    the longest pause between failed rounds; default 10 s
 * @param idlePoll           how long the shipper sleeps when the spool has nothing new; default 1 ms
 * @param closeTimeout       how long {@link KafkaShipper#close()} lets the current round finish
 *                           before abandoning it (it is then re-sent after a restart); default 10 s
 * @param producerProperties further Kafka producer settings (security, client id, buffer memory,
 *                           ...); the settings the shipper's guarantees rest on are rejected here
 * @param recordFormat       how each event is written into its record; default
 *                           {@link RecordFormat#BINARY}
 * @param stallTimeout       how long events may wait with no round acknowledged before the
 *                           shipper counts as stalled (gauge {@code isowatch_agent_shipper_stalled}
 *                           1, one warning naming the cause); a missing topic or an unreachable
 *                           broker found at start counts at once. Default 10 s
 * @param stallWarningInterval how often the warning repeats while the stall lasts; default 30 s
 * @param history            the name of the history the spool's events belong to, when several
 *                           agents record it together (issue 37): every record then names it in
 *                           the header {@value io.isowatch.history.HistoryEvent#HISTORY_HEADER}
 *                           (and a JSON record in its {@code history} field). The spool does not
 *                           hold the name, since all of one agent's events share it. Null (the
 *                           default) for the agent's own history: records as before
 */
public record ShipperOptions(Duration linger, int batchSizeBytes, String compression, int maxEventsPerRound,
                             Duration deliveryTimeout, Duration maxBlock, Duration retryBackoff,
                             Duration maxRetryBackoff, Duration idlePoll, Duration closeTimeout,
                             Map<String, String> producerProperties, RecordFormat recordFormat,
                             Duration stallTimeout, Duration stallWarningInterval, String history) {

    /** Producer settings the shipper owns. */
    static final Set<String> RESERVED = Set.of("enable.idempotence", "acks", "key.serializer", "value.serializer",
            "bootstrap.servers", "transactional.id", "max.in.flight.requests.per.connection");

    private static final Set<String> COMPRESSIONS = Set.of("none", "gzip", "snappy", "lz4", "zstd");

    public ShipperOptions {
        Objects.requireNonNull(compression, "compression");
        if (!COMPRESSIONS.contains(compression)) {
            throw new IllegalArgumentException("compression must be one of none, gzip, snappy, lz4 or zstd, got "
                    + compression);
        }
        positive("linger", linger, true);
        positive("deliveryTimeout", deliveryTimeout, false);
        positive("maxBlock", maxBlock, true);
        positive("retryBackoff", retryBackoff, true);
        positive("maxRetryBackoff", maxRetryBackoff, true);
        positive("idlePoll", idlePoll, false);
        positive("closeTimeout", closeTimeout, true);
        if (batchSizeBytes < 1) {
            throw new IllegalArgumentException("batchSizeBytes must be positive, got " + batchSizeBytes);
        }
        if (maxEventsPerRound < 1) {
            throw new IllegalArgumentException("maxEventsPerRound must be positive, got " + maxEventsPerRound);
        }
        Objects.requireNonNull(recordFormat, "recordFormat");
        positive("stallTimeout", stallTimeout, false);
        positive("stallWarningInterval", stallWarningInterval, false);
        if (history != null && history.isEmpty()) {
            throw new IllegalArgumentException("history must be a name or null (the agent's own history), not empty");
        }
        producerProperties = Map.copyOf(producerProperties);
        for (String key : producerProperties.keySet()) {
            if (RESERVED.contains(key)) {
                throw new IllegalArgumentException("producer property " + key + " is set by the shipper (idempotent,"
                        + " acks=all, byte-array serializers, at most 5 requests in flight) and cannot be overridden");
            }
        }
    }

    private static void positive(String name, Duration d, boolean zeroAllowed) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || !zeroAllowed && d.isZero()) {
            throw new IllegalArgumentException(name + " must be " + (zeroAllowed ? "non-negative" : "positive")
                    + ", got " + d);
        }
    }

    /** The defaults listed on each component. */
    public static ShipperOptions defaults() {
        return new ShipperOptions(Duration.ofMillis(5), 256 * 1024, "lz4", 20_000, Duration.ofMinutes(2),
                Duration.ofMinutes(1), Duration.ofMillis(500), Duration.ofSeconds(10), Duration.ofMillis(1),
                Duration.ofSeconds(10), Map.of(), RecordFormat.BINARY, Duration.ofSeconds(10), Duration.ofSeconds(30), null);
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds {@link ShipperOptions}; the record's constructor checks the values. */
    public static final class Builder {
        private Duration linger;
        private int batchSizeBytes;
        private String compression;
        private int maxEventsPerRound;
        private Duration deliveryTimeout;
        private Duration maxBlock;
        private Duration retryBackoff;
        private Duration maxRetryBackoff;
        private Duration idlePoll;
        private Duration closeTimeout;
        private Map<String, String> producerProperties;
        private RecordFormat recordFormat;
        private Duration stallTimeout;
        private Duration stallWarningInterval;
        private String history;

        private Builder(ShipperOptions from) {
            linger = from.linger;
            batchSizeBytes = from.batchSizeBytes;
            compression = from.compression;
            maxEventsPerRound = from.maxEventsPerRound;
            deliveryTimeout = from.deliveryTimeout;
            maxBlock = from.maxBlock;
            retryBackoff = from.retryBackoff;
            maxRetryBackoff = from.maxRetryBackoff;
            idlePoll = from.idlePoll;
            closeTimeout = from.closeTimeout;
            producerProperties = from.producerProperties;
            recordFormat = from.recordFormat;
            stallTimeout = from.stallTimeout;
            stallWarningInterval = from.stallWarningInterval;
            history = from.history;
        }

        /** The shared history's name; null for the agent's own. */
        public Builder history(String value) {
            history = value;
            return this;
        }

        public Builder linger(Duration value) {
            linger = value;
            return this;
        }

        public Builder batchSizeBytes(int value) {
            batchSizeBytes = value;
            return this;
        }

        public Builder compression(String value) {
            compression = value;
            return this;
        }

        public Builder maxEventsPerRound(int value) {
            maxEventsPerRound = value;
            return this;
        }

        public Builder deliveryTimeout(Duration value) {
            deliveryTimeout = value;
            return this;
        }

        public Builder maxBlock(Duration value) {
            maxBlock = value;
            return this;
        }

        public Builder retryBackoff(Duration value) {
            retryBackoff = value;
            return this;
        }

        public Builder maxRetryBackoff(Duration value) {
            maxRetryBackoff = value;
            return this;
        }

        public Builder idlePoll(Duration value) {
            idlePoll = value;
            return this;
        }

        public Builder closeTimeout(Duration value) {
            closeTimeout = value;
            return this;
        }

        public Builder producerProperties(Map<String, String> value) {
            producerProperties = value;
            return this;
        }

        public Builder recordFormat(RecordFormat value) {
            recordFormat = value;
            return this;
        }

        public Builder stallTimeout(Duration value) {
            stallTimeout = value;
            return this;
        }

        public Builder stallWarningInterval(Duration value) {
            stallWarningInterval = value;
            return this;
        }

        /** The first pause after a failed round and the longest, at once. */
        public Builder retryBackoff(Duration initial, Duration max) {
            retryBackoff = initial;
            maxRetryBackoff = max;
            return this;
        }

        /** Stalled after {@code timeout} with events waiting and none acknowledged; warned every {@code warnEvery}. */
        public Builder stall(Duration timeout, Duration warnEvery) {
            stallTimeout = timeout;
            stallWarningInterval = warnEvery;
            return this;
        }

        public ShipperOptions build() {
            return new ShipperOptions(linger, batchSizeBytes, compression, maxEventsPerRound, deliveryTimeout, maxBlock,
                    retryBackoff, maxRetryBackoff, idlePoll, closeTimeout, producerProperties, recordFormat,
                    stallTimeout, stallWarningInterval, history);
        }
    }
}
