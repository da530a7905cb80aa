package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;

import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple2;

/** Keys events by (agent id, process): a process's events pair only within one agent. */
public final class ProcessKeySelector implements KeySelector<HistoryEvent, Tuple2<String, Long>> {

    private static final long serialVersionUID = 1L;

    @Override
    public Tuple2<String, Long> getKey(HistoryEvent event) {
        return Tuple2.of(event.source(), event.op().process());
    }
}
