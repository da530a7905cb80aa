package io.isowatch.cli;

import io.isowatch.agent.recorder.EventLog;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.history.HistoryEvent;

/**
 * An event log that feeds every recorded event straight into the incremental checker, for the
 * demo. The recorder numbers and appends events under its own lock, so they arrive in index
 * order; this log serialises them once more because the checker is single-threaded.
 */
final class CheckingEventLog implements EventLog {

    private final IncrementalChecker checker;

    CheckingEventLog(IncrementalChecker checker) {
        this.checker = checker;
    }

    @Override
    public synchronized void append(HistoryEvent event) {
        checker.accept(event.op());
    }

    /** Runs {@code action} while no event is being checked (for reading the checker's counters). */
    synchronized void quietly(Runnable action) {
        action.run();
    }

    @Override
    public void close() {
    }
}
