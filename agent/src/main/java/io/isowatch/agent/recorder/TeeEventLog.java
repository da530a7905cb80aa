package io.isowatch.agent.recorder;

import io.isowatch.history.HistoryEvent;

import java.util.List;

/**
 * An {@link EventLog} appending every event to several logs in turn (the spool and the history
 * file, say). Thread-safe when its logs are. Closing closes them all, in order, even when one
 * fails; the first failure is rethrown.
 */
public final class TeeEventLog implements EventLog {

    private final List<EventLog> logs;

    public TeeEventLog(List<EventLog> logs) {
        if (logs.isEmpty()) {
            throw new IllegalArgumentException("a tee needs at least one event log");
        }
        this.logs = List.copyOf(logs);
    }

    public TeeEventLog(EventLog... logs) {
        this(List.of(logs));
    }

    @Override
    public void append(HistoryEvent event) {
        for (EventLog log : logs) {
            log.append(event);
        }
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (EventLog log : logs) {
            try {
                log.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
