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

    public SpoolOptions withRollCycle(RollCycle cycle) {
        return new SpoolOptions(cycle, keepShippedRollFiles, positionSyncInterval);
    }

    public SpoolOptions withKeepShippedRollFiles(int keep) {
        return new SpoolOptions(rollCycle, keep, positionSyncInterval);
    }

    public SpoolOptions withPositionSyncInterval(Duration interval) {
        return new SpoolOptions(rollCycle, keepShippedRollFiles, interval);
    }
}
