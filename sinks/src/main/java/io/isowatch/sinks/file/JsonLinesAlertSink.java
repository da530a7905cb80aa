package io.isowatch.sinks.file;

import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertJson;
import io.isowatch.sinks.AlertSink;
import io.isowatch.sinks.ConsoleLink;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends each alert to a file as one line of JSON ({@link AlertJson}), flushed to the
 * operating system before {@link #accept} returns, so a reader tailing the file sees every
 * alert at once. An existing file is appended to, never truncated. Thread-safe.
 *
 * <p>Write errors surface as {@link UncheckedIOException}: a file that cannot be written is a
 * misconfiguration the caller should see.
 */
public final class JsonLinesAlertSink implements AlertSink {

    private final Path path;
    private final ConsoleLink console;
    private final OutputStream out;
    private boolean closed;

    /** Opens (creating it and its parent directories if needed) the options' file for appending. */
    public JsonLinesAlertSink(JsonLinesSinkOptions options) {
        this.path = options.path();
        this.console = options.console();
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            this.out = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the alerts file " + path + ": " + e.getMessage(), e);
        }
    }

    /** The file written to. */
    public Path path() {
        return path;
    }

    @Override
    public synchronized void accept(Alert alert) {
        if (closed) {
            throw new IllegalStateException("the alerts file sink for " + path + " is closed");
        }
        byte[] json = AlertJson.toBytes(alert, console);
        byte[] line = new byte[json.length + 1];
        System.arraycopy(json, 0, line, 0, json.length);
        line[json.length] = '\n';
        try {
            // One write per line: concurrent appenders to the same file never interleave inside it.
            out.write(line);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append alert " + alert.id() + " to " + path + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the alerts file " + path + ": " + e.getMessage(), e);
        }
    }
}
