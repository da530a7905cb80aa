package io.isowatch.agent.client.jdbc;

import io.isowatch.agent.client.ClientFactory;
import io.isowatch.agent.client.DatabaseClient;
import io.isowatch.checker.Workload;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Opens {@link JdbcClient}s on one database: one connection per client, auto-commit off, at the
 * run's isolation level.
 *
 * <p>{@link #connect(JdbcTarget)} checks everything a run needs before the first transaction
 * (that the server is reachable, the credentials work, the tables can be created and emptied,
 * and an append, a write and a read succeed), so a misconfigured run stops at once with one
 * message naming the cause, never a stack trace. It empties the two tables isowatch owns, so
 * that every key of the new run starts empty, as the workload assumes.
 *
 * <p>Thread-safe. It also counts how transactions failed ({@link #failureCounts()}), by outcome
 * and SQLSTATE, e.g. {@code fail 40001}.
 */
public final class JdbcClientFactory implements ClientFactory {

    private static final int CONNECT_TIMEOUT_SECONDS = 10;
    private static final long PROBE_KEY = -1;

    private final JdbcTarget target;
    private final String serverDescription;
    private final String serverIsolation;
    private final ConcurrentMap<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, String> examples = new ConcurrentHashMap<>();

    private JdbcClientFactory(JdbcTarget target, String serverDescription, String serverIsolation) {
        this.target = target;
        this.serverDescription = serverDescription;
        this.serverIsolation = serverIsolation;
    }

    /**
     * Connects to {@code target}, creates its tables if needed, empties them, and checks that a
     * transaction at the target's level can append, write and read (then rolls it back).
     *
     * @throws IllegalStateException with a one-line message naming the cause (unreachable
     *                               server, bad credentials, missing privilege, unknown database)
     */
    public static JdbcClientFactory connect(JdbcTarget target) {
        Objects.requireNonNull(target, "target");
        String step = "connect";
        try (Connection c = open(target)) {
            String description = c.getMetaData().getDatabaseProductName() + " "
                    + c.getMetaData().getDatabaseProductVersion();
            step = "create and empty the tables " + target.appendTable() + " and " + target.registerTable();
            c.setAutoCommit(true);
            Dialect d = target.dialect();
            try (Statement s = c.createStatement()) {
                s.execute(d.createAppendTable(target.appendTable()));
                s.execute(d.createRegisterTable(target.registerTable()));
                s.execute("DELETE FROM " + target.appendTable());
                s.execute("DELETE FROM " + target.registerTable());
            }
            step = "run a test transaction at " + target.isolation().cliName();
            configure(c, target);
            probe(c, target);
            step = "read the session's isolation level";
            return new JdbcClientFactory(target, description, isolationOf(c, d));
        } catch (SQLException e) {
            throw setupFailure(target, step, e);
        }
    }

    /** Opens a client for {@code process}; a failure to connect is an {@link IllegalStateException}. */
    @Override
    public DatabaseClient open(long process) {
        try {
            return new JdbcClient(this, workConnection());
        } catch (SQLException e) {
            throw setupFailure(target, "connect", e);
        }
    }

    /** A connection for transactions: auto-commit off, at the run's isolation level. */
    Connection workConnection() throws SQLException {
        Connection c = open(target);
        try {
            configure(c, target);
            return c;
        } catch (SQLException e) {
            try {
                c.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    public JdbcTarget target() {
        return target;
    }

    /** The server's product name and version, e.g. {@code PostgreSQL 17.5}. */
    public String serverDescription() {
        return serverDescription;
    }

    /** The session's isolation level as the server names it, e.g. {@code REPEATABLE-READ}. */
    public String serverIsolation() {
        return serverIsolation;
    }

    /** Failed and unknown transactions so far, by outcome and SQLSTATE, sorted. */
    public Map<String, Long> failureCounts() {
        Map<String, Long> counts = new TreeMap<>();
        failures.forEach((k, v) -> counts.put(k, v.sum()));
        return counts;
    }

    /** The first database message seen for each key of {@link #failureCounts()}. */
    public Map<String, String> failureExamples() {
        return new TreeMap<>(examples);
    }

    void countFailure(String outcome, SQLException e) {
        String key = outcome + " " + (e.getSQLState() == null ? "no-sqlstate" : e.getSQLState())
                + (e.getErrorCode() == 0 ? "" : " (" + e.getErrorCode() + ")");
        failures.computeIfAbsent(key, k -> new LongAdder()).increment();
        examples.putIfAbsent(key, firstLine(e.getMessage()));
    }

    private static Connection open(JdbcTarget target) throws SQLException {
        Properties p = new Properties();
        if (target.user() != null) {
            p.setProperty("user", target.user());
        }
        if (target.password() != null) {
            p.setProperty("password", target.password());
        }
        target.dialect().connectionProperties(p, CONNECT_TIMEOUT_SECONDS);
        return DriverManager.getConnection(target.driverUrl(), p);
    }

    private static void configure(Connection c, JdbcTarget target) throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(target.isolation().jdbcLevel());
    }

    /** Appends, writes and reads the probe key in one transaction at the run's level, then rolls back. */
    private static void probe(Connection c, JdbcTarget target) throws SQLException {
        Dialect d = target.dialect();
        try {
            try (PreparedStatement append = c.prepareStatement(d.append(target.appendTable()));
                 PreparedStatement write = c.prepareStatement(d.write(target.registerTable()));
                 PreparedStatement read = c.prepareStatement(Dialect.read(target.workload() == Workload.LIST_APPEND
                         ? target.appendTable() : target.registerTable()))) {
                append.setLong(1, PROBE_KEY);
                append.setString(2, "0");
                append.executeUpdate();
                write.setLong(1, PROBE_KEY);
                write.setLong(2, 0);
                write.executeUpdate();
                read.setLong(1, PROBE_KEY);
                try (ResultSet rs = read.executeQuery()) {
                    while (rs.next()) {
                        rs.getString(1);
                    }
                }
            }
        } finally {
            c.rollback();
        }
    }

    private static String isolationOf(Connection c, Dialect d) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(d.isolationQuery())) {
            return rs.next() ? rs.getString(1) : "unknown";
        } catch (SQLException e) {
            return "unknown (" + firstLine(e.getMessage()) + ")";
        } finally {
            c.rollback();
        }
    }

    /** One line naming what went wrong and where, without the password. */
    static IllegalStateException setupFailure(JdbcTarget target, String step, SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        int code = e.getErrorCode();
        String who = target.user() == null ? "" : " as user '" + target.user() + "'";
        String cause;
        if (state.startsWith("28") || code == 1045) {
            cause = "authentication failed" + who + " (check --user/--password, ISOWATCH_DB_USER/ISOWATCH_DB_PASSWORD"
                    + (target.dialect() == Dialect.POSTGRESQL ? " or PGUSER/PGPASSWORD)" : ")");
        } else if ("3D000".equals(state) || code == 1049) {
            cause = "the database does not exist";
        } else if ("42501".equals(state) || code == 1142 || code == 1044 || code == 1227 || code == 1143) {
            cause = "missing privilege" + who + " to " + step
                    + " (isowatch needs CREATE, SELECT, INSERT, UPDATE and DELETE on its tables)";
        } else if (state.startsWith("08") || "connect".equals(step)) {
            cause = "cannot reach the database";
        } else {
            cause = "cannot " + step + who;
        }
        return new IllegalStateException(cause + " at " + target.redactedUrl() + ": " + firstLine(e.getMessage())
                + (state.isEmpty() ? "" : " [SQLSTATE " + state + "]"), e);
    }

    static String firstLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        int nl = message.indexOf('\n');
        return (nl < 0 ? message : message.substring(0, nl)).trim();
    }
}
