package io.isowatch.sinks;

/**
 * The options of one kind of sink, able to open it. Each sink has its own options record
 * implementing this, so a job or command can hold a list of configured sinks and open them all
 * the same way.
 */
public interface SinkOptions {

    /** Opens a sink with these options; the caller closes it. */
    AlertSink open();
}
