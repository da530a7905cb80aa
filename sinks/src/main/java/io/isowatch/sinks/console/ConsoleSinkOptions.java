package io.isowatch.sinks.console;

import io.isowatch.sinks.ConsoleLink;
import io.isowatch.sinks.SinkOptions;

import java.io.PrintStream;
import java.util.Objects;

/**
 * Options of a {@link ConsoleAlertSink}.
 *
 * @param out          where to print; not closed by the sink
 * @param explanations print each alert's full explanation under its title; false prints titles only
 * @param console      where the findings console shows each finding, printed under the title; null for none
 */
public record ConsoleSinkOptions(PrintStream out, boolean explanations, ConsoleLink console) implements SinkOptions {

    public ConsoleSinkOptions {
        Objects.requireNonNull(out, "out");
    }

    /** Without links to the console. */
    public ConsoleSinkOptions(PrintStream out, boolean explanations) {
        this(out, explanations, null);
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
