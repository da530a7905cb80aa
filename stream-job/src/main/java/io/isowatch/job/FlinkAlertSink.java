package io.isowatch.job;

import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertSink;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.util.function.SerializableSupplier;

import java.util.Objects;

/**
 * Runs one of the sinks module's {@link AlertSink}s (file, console, Alertmanager webhook) as a
 * Flink sink: each writer opens its own sink from a serializable factory and hands it every
 * alert. Delivery is at least once across restarts (alerts after the last checkpoint are sent
 * again); consumers de-duplicate by the alert's stable id.
 */
public final class FlinkAlertSink implements Sink<Alert> {

    private static final long serialVersionUID = 1L;

    private final SerializableSupplier<AlertSink> factory;

    /** @param factory opens the sink, once per writer, on the task manager */
    public FlinkAlertSink(SerializableSupplier<AlertSink> factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    @Override
    public SinkWriter<Alert> createWriter(WriterInitContext context) {
        AlertSink sink = factory.get();
        return new SinkWriter<>() {
            @Override
            public void write(Alert alert, Context ctx) {
                sink.accept(alert);
            }

            @Override
            public void flush(boolean endOfInput) {
                // Each sink delivers (or hands to its client) on accept; nothing is held here.
            }

            @Override
            public void close() {
                sink.close();
            }
        };
    }
}
