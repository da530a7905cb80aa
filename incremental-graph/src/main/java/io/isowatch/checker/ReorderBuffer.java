package io.isowatch.checker;

import io.isowatch.history.Op;

import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * Restores index order to events that arrive slightly out of order.
 *
 * <p>Holds up to {@code window} events and releases the one with the smallest index whenever it
 * holds more. With a window of 0 every event passes straight through. An event whose index is
 * below one already released came too late for the window: it is rejected with a message that
 * says so, rather than silently checked out of order. Cost: O(log window) per event.
 */
final class ReorderBuffer {

    private final int window;
    private final PriorityQueue<Op> held;
    private long lastReleased = Long.MIN_VALUE;

    ReorderBuffer(int window) {
        this.window = window;
        this.held = new PriorityQueue<>(Math.max(1, window + 1),
                (a, b) -> Long.compare(a.index(), b.index()));
    }

    /** Takes an event; passes every event now due, in index order, to {@code release}. */
    void offer(Op op, Consumer<Op> release) {
        if (op.index() <= lastReleased) {
            throw new HistoryViolationException(op, Messages.late(op, lastReleased, window));
        }
        if (window == 0) {
            lastReleased = op.index();
            release.accept(op);
            return;
        }
        held.add(op);
        while (held.size() > window) {
            releaseFirst(release);
        }
    }

    /** Releases everything still held. */
    void flush(Consumer<Op> release) {
        while (!held.isEmpty()) {
            releaseFirst(release);
        }
    }

    private void releaseFirst(Consumer<Op> release) {
        Op first = held.poll();
        lastReleased = first.index();
        release.accept(first);
    }
}
