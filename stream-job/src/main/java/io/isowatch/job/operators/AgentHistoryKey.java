package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;

import org.apache.flink.api.java.functions.KeySelector;

/**
 * Keys every event by the history it belongs to: the one its agent joined ({@code agent run
 * --history}), or the agent's own. A history's dependency graph spans all its keys, processes and
 * agents, so one task sees the whole of it (see {@link CheckTransactionsFunction}); different
 * histories are checked apart and spread over the checker's parallel tasks.
 */
public final class AgentHistoryKey implements KeySelector<HistoryEvent, String> {

    private static final long serialVersionUID = 1L;

    @Override
    public String getKey(HistoryEvent event) {
        return event.history();
    }
}
