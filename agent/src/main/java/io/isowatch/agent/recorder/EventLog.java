package io.isowatch.agent.recorder;

import io.isowatch.history.HistoryEvent;

/**
 * Where a {@link HistoryRecorder} puts events. {@link #append} returns only once the event is as
 * durable as the log promises (for the Chronicle spool: written to the memory-mapped queue file,
 * so that killing the process loses nothing appended). Implementations are thread-safe.
 */
public interface EventLog extends AutoCloseable {

    /** Appends one event. */
    void append(HistoryEvent event);

    /** Releases the log's resources; appending afterwards is an error. */
    @Override
    void close();
}
