package io.isowatch.agent.client;

import io.isowatch.history.MicroOp;

import java.util.List;

/**
 * One connection to a database under test, running transactions made of micro-ops.
 *
 * <p>A client belongs to one worker thread and runs one transaction at a time; it need not be
 * thread-safe (a JDBC connection is not). Keys and values are the atoms of the history
 * ({@link MicroOp}): an adapter maps them to rows, e.g. a table {@code (k BIGINT PRIMARY KEY,
 * v TEXT)} with list elements comma-separated, or one row per register.
 *
 * <p>After an {@link IndeterminateException} the caller closes the client and opens a fresh one
 * from its {@link ClientFactory}, because the connection's state is unknown.
 */
public interface DatabaseClient extends AutoCloseable {

    /**
     * Runs {@code txn} as one transaction: its micro-ops in order, then a commit.
     *
     * @param txn the micro-ops as invoked: appends and writes carry their values, reads are
     *            unknown ({@link MicroOp.Read#values()} is null)
     * @return the micro-ops as completed, same length and order as {@code txn}, every read
     *         filled in with the value it saw (a list's elements; a register's value as one
     *         element, or none when unset)
     * @throws DefinitelyAbortedException when the transaction certainly did not commit
     * @throws IndeterminateException     when it may or may not have committed
     */
    List<MicroOp> execute(List<MicroOp> txn) throws DefinitelyAbortedException, IndeterminateException;

    /** Releases the connection. Never throws; a failure to close is only logged. */
    @Override
    void close();
}
