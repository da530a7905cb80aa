package io.isowatch.cli;

import io.isowatch.job.FlinkAlertSink;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertSink;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Hands a local Flink cluster's output to objects of the command that started it. The launcher
 * runs the job on a MiniCluster inside its own JVM, so a sink (serialized into the job graph and
 * rebuilt on the task manager) can find its target again by a registered name; the target must
 * accept calls from several writer threads at once.
 */
final class InProcessSinks {

    private static final Map<String, Consumer<?>> TARGETS = new ConcurrentHashMap<>();

    private InProcessSinks() {
    }

    /** Registers {@code target}; the returned name is for {@link #sink}, and {@link #unregister} frees it. */
    static String register(Consumer<?> target) {
        String name = UUID.randomUUID().toString();
        TARGETS.put(name, target);
        return name;
    }

    static void unregister(String name) {
        TARGETS.remove(name);
    }

    /** A sink handing every record to the target registered as {@code name}. */
    static <T> Sink<T> sink(String name) {
        return new Forward<>(name);
    }

    /**
     * The alert sink registered as {@code name}, run through {@link FlinkAlertSink} as the job runs
     * every sinks-module sink; its writers never close it (its owner does).
     */
    static Sink<Alert> alertSink(String name) {
        return new FlinkAlertSink(() -> new AlertSink() {
            @Override
            public void accept(Alert alert) {
                InProcessSinks.<Alert>target(name).accept(alert);
            }

            @Override
            public void close() {
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static <T> Consumer<T> target(String name) {
        Consumer<?> t = TARGETS.get(name);
        if (t == null) {
            throw new IllegalStateException("no in-process sink registered as " + name
                    + "; the job must run on a local cluster in the launcher's JVM");
        }
        return (Consumer<T>) t;
    }

    private static final class Forward<T> implements Sink<T> {
        private static final long serialVersionUID = 1L;

        private final String name;

        Forward(String name) {
            this.name = name;
        }

        @Override
        public SinkWriter<T> createWriter(WriterInitContext context) {
            Consumer<T> target = target(name);
            return new SinkWriter<>() {
                @Override
                public void write(T element, Context ctx) {
                    target.accept(element);
                }

                @Override
                public void flush(boolean endOfInput) {
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
