package io.isowatch.agent.transport;

import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;

import java.time.Duration;
import java.util.Objects;

/**
 * Options of a {@link ChronicleHistoryLog}.
 *
 * @param rollCycle            how often Chronicle starts a new file; retention deletes whole files,
 *                             so this is also the granularity of reclaiming disk. Default
 *                             {@link RollCycles#FAST_HOURLY} (up to 2^32 events per hour)
 * @param keepShippedRollFiles how many roll files that are entirely shipped (every event in them
 *                             acknowledged by Kafka) to keep for inspection or replay; older ones
 *                             are deleted. 0 deletes a file as soon as the acknowledged position
 *                             leaves it; {@link Integer#MAX_VALUE} keeps everything. Default 1
 * @param positionSyncInterval the shortest time between two writes of the acknowledged position
 *                             to disk. Each write is an atomic replace plus fsync; in between, the
 *                             position advances in memory only, so a crash re-ships at most this
 *                             much (as duplicates with the same identity). Default 200 ms
 */
public record SpoolOptions(RollCycle rollCycle, int keepShippedRollFiles, Duration positionSyncInterval) {

    public SpoolOptions {
        Objects.requireNonNull(rollCycle, "rollCycle");
        Objects.requireNonNull(positionSyncInterval, "positionSyncInterval");
        if (keepShippedRollFiles < 0) {
            throw new IllegalArgumentException("keepShippedRollFiles must be >= 0 (Integer.MAX_VALUE keeps all), got "
                    + keepShippedRollFiles);
        }
        if (positionSyncInterval.isNegative()) {
            throw new IllegalArgumentException("positionSyncInterval must not be negative, got " + positionSyncInterval);
        }
    }

    /** Hourly files, one shipped file kept, the position synced at most every 200 ms. */
    public static SpoolOptions defaults() {
        return new SpoolOptions(RollCycles.FAST_HOURLY, 1, Duration.ofMillis(200));
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds {@link SpoolOptions}; the record's constructor checks the values. */
    public static final class Builder {
        private RollCycle rollCycle;
        private int keepShippedRollFiles;
        private Duration positionSyncInterval;

        private Builder(SpoolOptions from) {
            rollCycle = from.rollCycle;
            keepShippedRollFiles = from.keepShippedRollFiles;
            positionSyncInterval = from.positionSyncInterval;
        }

        public Builder rollCycle(RollCycle value) {
            rollCycle = value;
            return this;
        }

        public Builder keepShippedRollFiles(int value) {
            keepShippedRollFiles = value;
            return this;
        }

        public Builder positionSyncInterval(Duration value) {
            positionSyncInterval = value;
            return this;
        }

        public SpoolOptions build() {
            return new SpoolOptions(rollCycle, keepShippedRollFiles, positionSyncInterval);
        }
    }
}
