package io.isowatch.sinks.file;

import io.isowatch.sinks.ConsoleLink;
import io.isowatch.sinks.SinkOptions;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Options of a {@link JsonLinesAlertSink}.
 *
 * @param path    the file to append to; created (with its parent directories) when missing
 * @param console where the findings console shows each finding, for the {@code link} field; null for no link
 */
public record JsonLinesSinkOptions(Path path, ConsoleLink console) implements SinkOptions {

    public JsonLinesSinkOptions {
        Objects.requireNonNull(path, "path");
    }

    /** The file, without links. */
    public JsonLinesSinkOptions(Path path) {
        this(path, null);
    }

    @Override
    public JsonLinesAlertSink open() {
        return new JsonLinesAlertSink(this);
    }
}
