package io.isowatch.agent.workload;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Spaces transaction starts evenly at a rate shared by all workers. A worker that finds the
 * schedule behind the clock starts at once and the schedule restarts from now, so a slow
 * stretch is not followed by a burst.
 */
final class RateLimiter {

    private final long intervalNanos;
    private final AtomicLong nextSlot = new AtomicLong(Long.MIN_VALUE);

    RateLimiter(double perSecond) {
        this.intervalNanos = perSecond == 0 ? 0 : Math.max(1, (long) (1e9 / perSecond));
    }

    /** Waits for the caller's turn; returns at once when the rate is unlimited. */
    void acquire() {
        if (intervalNanos == 0) {
            return;
        }
        while (true) {
            long previous = nextSlot.get();
            long now = System.nanoTime();
            long slot = previous == Long.MIN_VALUE ? now : Math.max(previous, now);
            if (nextSlot.compareAndSet(previous, slot + intervalNanos)) {
                if (slot > now) {
                    LockSupport.parkNanos(slot - now);
                }
                return;
            }
        }
    }
}
