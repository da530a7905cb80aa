package io.isowatch.agent.recorder;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.codec.JsonLinesWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * An {@link EventLog} writing each event's op as a Jepsen JSON line (the {@code --history-out}
 * file), readable by {@code isowatch check} and elle-cli. The event's source is not written: the
 * op's index is already the agent's sequence number.
 *
 * <p>Thread-safe. Output is buffered: lines reach the file when the buffer fills, on
 * {@link #flush()} and on {@link #close()}, so a crash may lose the tail (and cut a line). The
 * Chronicle spool, not this file, is the durable record: an agent restarted on the spool cuts a
 * torn line off and writes the lost tail again from the spool before it records anything
 * ({@link HistoryFileEnd}). Keys and values must be integer atoms.
 */
public final class JsonLinesEventLog implements EventLog {

    private final JsonLinesWriter writer;
    private boolean closed;

    private JsonLinesEventLog(JsonLinesWriter writer) {
        this.writer = writer;
    }

    /**
     * Creates (or truncates) {@code file}.
     *
     * @throws java.io.UncheckedIOException when the file cannot be created
     */
    public static JsonLinesEventLog open(Path file) {
        Objects.requireNonNull(file, "file");
        return new JsonLinesEventLog(JsonLinesWriter.open(file, new AtomTable()));
    }

    /**
     * Opens {@code file} to append to it, creating it if needed: a resumed agent continues the
     * history file it completed from its spool.
     *
     * @throws java.io.UncheckedIOException when the file cannot be opened
     */
    public static JsonLinesEventLog append(Path file) {
        Objects.requireNonNull(file, "file");
        try {
            return new JsonLinesEventLog(new JsonLinesWriter(Files.newOutputStream(file, StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.APPEND), new AtomTable()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file + " to append: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void append(HistoryEvent event) {
        if (closed) {
            throw new IllegalStateException("history file is closed; cannot append event " + event.sequence());
        }
        writer.write(event.op());
    }

    /** Pushes buffered lines to the file. */
    public synchronized void flush() {
        if (!closed) {
            writer.flush();
        }
    }

    /** Flushes and closes the file; closing twice does nothing. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            writer.close();
        }
    }
}
