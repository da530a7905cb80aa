package io.isowatch.agent.client;

/**
 * Opens {@link DatabaseClient}s for a workload: one per worker thread, and a fresh one after a
 * transaction ends indeterminately. Implementations are thread-safe.
 */
@FunctionalInterface
public interface ClientFactory {

    /**
     * Opens a client for {@code process} (the Jepsen process id it will run as).
     *
     * @throws IllegalStateException when the database cannot be reached
     */
    DatabaseClient open(long process);
}
