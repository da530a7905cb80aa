package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;

import org.apache.flink.api.java.functions.KeySelector;

/**
 * Keys every event by the history it belongs to: its agent's. A history's dependency graph spans
 * all its keys and processes, so one task sees the whole of it (see
 * {@link CheckTransactionsFunction}); different agents' histories are checked apart and spread
 * over the checker's parallel tasks.
 */
public final class AgentHistoryKey implements KeySelector<HistoryEvent, String> {

    private static final long serialVersionUID = 1L;

    @Override
    public String getKey(HistoryEvent event) {
        return event.source();
    }
}
