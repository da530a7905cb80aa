package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;
import io.isowatch.job.DeadLetter;

import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.types.Either;

import java.time.Duration;

/**
 * Event time of the job: an op's {@code time} (nanoseconds since the test began) in whole
 * milliseconds, Flink's unit for event time, so {@code max-out-of-orderness} and the other
 * durations mean what they say. Within one agent the sequence number orders events exactly; the
 * millisecond timestamp only decides when the watermark releases the events a gap holds back.
 */
public final class EventTime {

    private EventTime() {
    }

    private static final long NANOS_PER_MILLI = 1_000_000L;

    /** The event's timestamp in milliseconds. */
    public static long of(HistoryEvent event) {
        return Math.floorDiv(event.op().time(), NANOS_PER_MILLI);
    }

    /** An event time in milliseconds as an op time: the first nanosecond of that millisecond. */
    public static long opTime(long millis) {
        return millis * NANOS_PER_MILLI;
    }

    /**
     * Bounded out-of-orderness over the source's output; dead letters carry no event time
     * ({@code Long.MIN_VALUE}), so they never move the watermark.
     *
     * @param idleTimeout zero for none
     */
    public static WatermarkStrategy<Either<DeadLetter, HistoryEvent>> watermarks(Duration maxOutOfOrderness,
                                                                                Duration idleTimeout) {
        WatermarkStrategy<Either<DeadLetter, HistoryEvent>> s = WatermarkStrategy
                .<Either<DeadLetter, HistoryEvent>>forBoundedOutOfOrderness(maxOutOfOrderness)
                .withTimestampAssigner((SerializableTimestampAssigner<Either<DeadLetter, HistoryEvent>>)
                        (e, recordTimestamp) -> e.isRight() ? of(e.right()) : Long.MIN_VALUE);
        return idleTimeout.isZero() ? s : s.withIdleness(idleTimeout);
    }
}
