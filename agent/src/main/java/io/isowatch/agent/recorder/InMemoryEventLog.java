package io.isowatch.agent.recorder;

import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;

import java.util.ArrayList;
import java.util.List;

/**
 * An {@link EventLog} in a list on the heap: for tests, benchmarks and in-process checking.
 * Thread-safe; grows without bound.
 */
public final class InMemoryEventLog implements EventLog {

    private final List<HistoryEvent> events = new ArrayList<>();
    private boolean closed;

    @Override
    public synchronized void append(HistoryEvent event) {
        if (closed) {
            throw new IllegalStateException("event log is closed; cannot append event " + event.sequence());
        }
        events.add(event);
    }

    /** A copy of the events appended so far, in append order. */
    public synchronized List<HistoryEvent> events() {
        return List.copyOf(events);
    }

    /** The ops of the events appended so far, in append order. */
    public synchronized List<Op> ops() {
        List<Op> ops = new ArrayList<>(events.size());
        for (HistoryEvent e : events) {
            ops.add(e.op());
        }
        return ops;
    }

    public synchronized int size() {
        return events.size();
    }

    /** Forgets the events appended so far (a benchmark calls it to keep the heap small). */
    public synchronized void clear() {
        events.clear();
    }

    @Override
    public synchronized void close() {
        closed = true;
    }
}
