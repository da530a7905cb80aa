package io.isowatch.sinks.console;

import io.isowatch.sinks.SinkOptions;

import java.io.PrintStream;
import java.util.Objects;

/**
 * Options of a {@link ConsoleAlertSink}.
 *
 * @param out          where to print; not closed by the sink
 * @param explanations print each alert's full explanation under its title; false prints titles only
 */
public record ConsoleSinkOptions(PrintStream out, boolean explanations) implements SinkOptions {

    public ConsoleSinkOptions {
        Objects.requireNonNull(out, "out");
    }

    /** Titles and explanations on standard output. */
    public static ConsoleSinkOptions stdout() {
        return new ConsoleSinkOptions(System.out, true);
    }

    @Override
    public ConsoleAlertSink open() {
        return new ConsoleAlertSink(this);
    }
}
