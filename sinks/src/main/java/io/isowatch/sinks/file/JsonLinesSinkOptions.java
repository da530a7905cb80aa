package io.isowatch.sinks.file;

import io.isowatch.sinks.SinkOptions;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Options of a {@link JsonLinesAlertSink}.
 *
 * @param path the file to append to; created (with its parent directories) when missing
 */
public record JsonLinesSinkOptions(Path path) implements SinkOptions {

    public JsonLinesSinkOptions {
        Objects.requireNonNull(path, "path");
    }

    @Override
    public JsonLinesAlertSink open() {
        return new JsonLinesAlertSink(this);
    }
}
