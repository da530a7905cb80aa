package io.isowatch.agent.client;

/**
 * Opens {@link DatabaseClient}s for a workload: one per worker thread, and a fresh one after a
 * transaction ends indeterminately. Implementations are thread-safe.
 */
@FunctionalInterface
public interface ClientFactory {

    /**
     * Opens a client for {@code process} (the Jepsen process id it will run as) on worker thread
     * {@code worker}. A worker runs one process after another (a new one after each {@code info}),
     * so a factory that spreads clients over several nodes picks the node by {@code worker}: a
     * replacement process then talks to the same node as the one it replaces, as in Jepsen.
     *
     * @param worker  the worker thread, 0 to concurrency - 1
     * @param process the process id, unique in the history
     * @throws IllegalStateException when the database cannot be reached
     */
    DatabaseClient open(int worker, long process);
}
