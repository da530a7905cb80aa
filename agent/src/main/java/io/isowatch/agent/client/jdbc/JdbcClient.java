package io.isowatch.agent.client.jdbc;

import io.isowatch.agent.client.DatabaseClient;
import io.isowatch.agent.client.DefinitelyAbortedException;
import io.isowatch.agent.client.IndeterminateException;
import io.isowatch.checker.Workload;
import io.isowatch.history.MicroOp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link DatabaseClient} on one JDBC connection per server it uses. Each transaction runs its micro-ops as
 * statements, one round trip each, then commits.
 *
 * <p>Outcomes, chosen so that the checker never sees a transaction's effects mis-stated:
 * <ul>
 *   <li>any error before {@code COMMIT} is sent: the client rolls back (or the connection is
 *       gone, and the server rolls back an open transaction when its session ends), so the
 *       transaction is {@link DefinitelyAbortedException definitely aborted}. This covers
 *       serialization failures, deadlocks and lock wait timeouts (InnoDB rolls back only the
 *       statement on a lock wait timeout; the explicit rollback ends the rest);</li>
 *   <li>an error from {@code COMMIT} itself: aborted only when the server says it rolled back
 *       (SQLSTATE 40001, 40P01, 40002, e.g. PostgreSQL's serialization failure at commit);
 *       anything else (a lost connection, a timeout) is {@link IndeterminateException
 *       indeterminate}, since the commit may have happened.</li>
 * </ul>
 * The client never retries: a retry is a new transaction with fresh values from the runner.
 * After a lost connection the client reconnects before its next transaction; if that fails, the
 * transaction (not yet sent) is reported indeterminate so that the runner asks its factory for a
 * new client, which stops the run with the factory's message if the database is gone.
 *
 * <p>The client holds one connection to its worker's node and, when the run has a read target,
 * one to that server; {@link JdbcTopology#serverFor} picks the connection of each transaction.
 * A reconnect goes to the same server, so a client stays on its node for life.
 *
 * <p>Not thread-safe: one worker thread owns it.
 */
final class JdbcClient implements DatabaseClient {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcClient.class);

    private final JdbcClientFactory factory;
    private final JdbcTopology topology;
    private final int worker;
    private final Session node;
    private final Session reads;

    /** Connects to {@code worker}'s node and to the read target, if any; a failure is an {@link IllegalStateException} naming the server. */
    JdbcClient(JdbcClientFactory factory, int worker) {
        this.factory = factory;
        this.topology = factory.topology();
        this.worker = worker;
        this.node = new Session(topology.node(worker));
        JdbcTarget readNode = topology.readNode();
        this.reads = readNode == null || readNode.equals(node.server) ? node : new Session(readNode);
        try {
            connect(node);
            if (reads != node) {
                connect(reads);
            }
        } catch (IllegalStateException e) {
            close();
            throw e;
        }
    }

    private void connect(Session s) {
        try {
            s.attach(factory.workConnection(s.server));
        } catch (SQLException e) {
            throw JdbcClientFactory.setupFailure(s.server, "connect", e);
        }
    }

    @Override
    public List<MicroOp> execute(List<MicroOp> txn) throws DefinitelyAbortedException, IndeterminateException {
        Session s = topology.serverFor(worker, txn).equals(node.server) ? node : reads;
        if (s.connection == null) {
            reconnect(s);
        } else if (s.statementsClosed && !s.prepareAgain()) {
            s.discard();
            reconnect(s);
        }
        List<MicroOp> completed = new ArrayList<>(txn.size());
        boolean committing = false;
        try {
            for (MicroOp m : txn) {
                completed.add(run(s, m));
            }
            committing = true;
            s.connection.commit();
            return completed;
        } catch (SQLException e) {
            if (committing && !s.server.dialect().notCommitted(e)) {
                factory.countFailure("info", e, s.server);
                s.discard();
                throw new IndeterminateException("commit outcome unknown: " + JdbcClientFactory.firstLine(e.getMessage()), e);
            }
            factory.countFailure("fail", e, s.server);
            if (Dialect.connectionLost(e) || !s.rollback()) {
                s.discard();
            } else {
                s.statementsClosed = s.server.dialect().closesStatementsOnFailure();
            }
            throw new DefinitelyAbortedException(JdbcClientFactory.firstLine(e.getMessage()), e);
        }
    }

    private static MicroOp run(Session s, MicroOp m) throws SQLException {
        if (m instanceof MicroOp.Read r) {
            s.read.setLong(1, r.key());
            try (ResultSet rs = s.read.executeQuery()) {
                if (!rs.next()) {
                    return new MicroOp.Read(r.key(), new long[0]);
                }
                if (s.server.workload() == Workload.LIST_APPEND) {
                    return new MicroOp.Read(r.key(), parseList(rs.getString(1)));
                }
                return new MicroOp.Read(r.key(), new long[] {rs.getLong(1)});
            }
        }
        if (m instanceof MicroOp.Append a) {
            s.upserts.append(a.key(), Long.toString(a.value()));
            return a;
        }
        MicroOp.Write w = (MicroOp.Write) m;
        s.upserts.write(w.key(), w.value());
        return w;
    }

    /**
     * Parses the comma-separated list text. Text that is not a list of integers (nobody but
     * isowatch should write these tables) throws, and the runner records the transaction as
     * unknown rather than invent a read.
     */
    static long[] parseList(String text) {
        if (text == null || text.isEmpty()) {
            return new long[0];
        }
        int n = 1;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == ',') {
                n++;
            }
        }
        long[] values = new long[n];
        int start = 0;
        for (int i = 0; i < n; i++) {
            int end = text.indexOf(',', start);
            if (end < 0) {
                end = text.length();
            }
            try {
                values[i] = Long.parseLong(text, start, end, 10);
            } catch (NumberFormatException e) {
                throw new IllegalStateException("the list text '" + text + "' is not comma-separated integers; "
                        + "has something else written to the isowatch tables?", e);
            }
            start = end + 1;
        }
        return values;
    }

    private void reconnect(Session s) throws IndeterminateException {
        try {
            s.attach(factory.workConnection(s.server));
        } catch (SQLException e) {
            // Nothing was sent; unknown is merely conservative, and it makes the runner ask the
            // factory for a new client, which stops the run if the database stays unreachable.
            throw new IndeterminateException("cannot reconnect: " + JdbcClientFactory.firstLine(e.getMessage()), e);
        }
    }

    @Override
    public void close() {
        node.close();
        if (reads != node) {
            reads.close();
        }
    }

    /** One server's connection and its statements; the connection is null after a failure until reconnected. */
    private static final class Session {

        final JdbcTarget server;
        Connection connection;
        PreparedStatement read;
        Upserts upserts;
        /** Set after a failed transaction on a driver that closes the statements with it. */
        boolean statementsClosed;

        Session(JdbcTarget server) {
            this.server = server;
        }

        void attach(Connection c) throws SQLException {
            this.connection = c;
            read = c.prepareStatement(Dialect.read(server.workload() == Workload.LIST_APPEND
                    ? server.appendTable() : server.registerTable()));
            upserts = new Upserts(c, server);
        }

        /** Rolls back; false when that failed, so the connection can no longer be trusted. */
        boolean rollback() {
            try {
                connection.rollback();
                return true;
            } catch (SQLException e) {
                return false;
            }
        }

        /**
         * Prepares the statements again, the driver having closed them with a failed transaction
         * ({@link Dialect#closesStatementsOnFailure}); false when that failed. Done as the next
         * transaction starts, not after the rollback: preparing begins a transaction, whose
         * snapshot must not be older than the transaction's invocation.
         */
        boolean prepareAgain() {
            statementsClosed = false;
            try {
                upserts.close();
                read.close();
                attach(connection);
                return true;
            } catch (SQLException e) {
                return false;
            }
        }

        void discard() {
            Connection c = connection;
            connection = null;
            if (c != null) {
                try {
                    c.close();
                } catch (SQLException e) {
                    LOG.debug("closing a broken connection failed: {}", e.toString());
                }
            }
        }

        void close() {
            if (connection == null) {
                return;
            }
            try {
                if (!connection.isClosed()) {
                    connection.rollback();
                }
            } catch (SQLException e) {
                LOG.debug("rollback on close failed: {}", e.toString());
            }
            discard();
        }
    }
}
