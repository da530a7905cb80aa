package io.isowatch.agent.recorder;

import io.isowatch.agent.client.DefinitelyAbortedException;
import io.isowatch.agent.client.IndeterminateException;
import io.isowatch.agent.client.TransactionFailedException;

/**
 * Reads one key in a read-only transaction of its own, for a closing read
 * ({@link HistoryRecorder#retireKey}).
 */
@FunctionalInterface
public interface KeyReader {

    /**
     * Reads {@code key} and commits.
     *
     * @return what the read saw: a list's elements in order (empty for a list never appended to),
     *         or a register's value as one element; null for a register never written (nil)
     * @throws DefinitelyAbortedException when the transaction certainly did not commit (recorded {@code fail})
     * @throws IndeterminateException     when it may or may not have committed (recorded {@code info})
     */
    long[] read(long key) throws TransactionFailedException;
}
