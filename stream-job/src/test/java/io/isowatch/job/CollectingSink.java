package io.isowatch.job;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A bounded test sink that collects what reaches it into a JVM-wide queue (the MiniCluster runs
 * in the test's JVM), keyed by a fresh id per sink so tests never see each other's output.
 */
public final class CollectingSink<T> implements Sink<T> {

    private static final long serialVersionUID = 1L;
    private static final Map<String, Queue<Object>> RESULTS = new ConcurrentHashMap<>();

    private final String id = UUID.randomUUID().toString();

    public CollectingSink() {
        RESULTS.put(id, new ConcurrentLinkedQueue<>());
    }

    /** Everything written so far, in arrival order. */
    @SuppressWarnings("unchecked")
    public List<T> values() {
        return new ArrayList<>((Queue<T>) (Queue<?>) RESULTS.get(id));
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        Queue<Object> queue = RESULTS.get(id);
        return new SinkWriter<>() {
            @Override
            public void write(T element, Context ctx) {
                queue.add(element);
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
