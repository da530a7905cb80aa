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
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Opens {@link JdbcClient}s on one database: one connection per client and server, auto-commit
 * off, at the run's isolation level. The {@link JdbcTopology} decides which server each client
 * and each transaction uses.
 *
 * <p>{@link #connect(JdbcTopology)} checks everything a run needs before the first transaction
 * (that every server is reachable, the credentials work, the tables can be created and emptied,
 * and an append, a write and a read succeed), so a misconfigured run stops at once with one
 * message naming the cause and the server, never a stack trace. It empties the two tables
 * isowatch owns on the primary, so that every key of the new run starts empty, as the workload
 * assumes, and waits until every other server shows them empty too. Agents that record one
 * history together share the tables, so they keep them instead
 * ({@link #connect(JdbcTopology, boolean)}): one agent emptying them at its start, or at a
 * restart, would delete rows the others wrote and then read, which the checker would rightly
 * report as lost writes.
 *
 * <p>Thread-safe. It also counts how transactions failed ({@link #failureCounts()}), by outcome
 * and SQLSTATE, e.g. {@code fail 40001}.
 */
public final class JdbcClientFactory implements ClientFactory {

    private static final int CONNECT_TIMEOUT_SECONDS = 10;
    /** How long another server may take to show the tables the primary created and emptied. */
    private static final Duration CATCH_UP = Duration.ofSeconds(30);
    private static final long PROBE_KEY = -1;
    private static final String READ_TARGET = " (read target)";

    private final JdbcTopology topology;
    private final String serverDescription;
    private final String serverIsolation;
    private final String readServerIsolation;
    private final ConcurrentMap<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, String> examples = new ConcurrentHashMap<>();

    private JdbcClientFactory(JdbcTopology topology, String serverDescription, String serverIsolation,
                              String readServerIsolation) {
        this.topology = topology;
        this.serverDescription = serverDescription;
        this.serverIsolation = serverIsolation;
        this.readServerIsolation = readServerIsolation;
    }

    /**
     * Connects to {@code target}, creates its tables if needed, empties them, and checks that a
     * transaction at the target's level can append, write and read (then rolls it back).
     *
     * @throws IllegalStateException with a one-line message naming the cause (unreachable
     *                               server, bad credentials, missing privilege, unknown database)
     */
    public static JdbcClientFactory connect(JdbcTarget target) {
        return connect(JdbcTopology.single(target));
    }

    /**
     * Prepares the primary as {@link #connect(JdbcTarget)} does; then waits until every other node
     * and the read target show the emptied tables (a replica may lag, and a read of the previous
     * run's rows would look like an anomaly), and checks that each node can run the test
     * transaction and the read target a read-only one at its level.
     *
     * @throws IllegalStateException with a one-line message naming the cause and the server
     */
    public static JdbcClientFactory connect(JdbcTopology topology) {
        return connect(topology, CATCH_UP, true);
    }

    /**
     * As {@link #connect(JdbcTopology)}; with {@code emptyTables} false, the tables are created
     * if missing and their rows kept, and the other servers need only show the tables. For the
     * agents of one history (issue 37), which share the tables: the history must then begin on
     * tables without another run's rows (a new table prefix, or tables emptied beforehand), as
     * such rows would read as values nobody wrote.
     */
    public static JdbcClientFactory connect(JdbcTopology topology, boolean emptyTables) {
        return connect(topology, CATCH_UP, emptyTables);
    }

    /** {@link #connect(JdbcTopology)}, waiting at most {@code catchUp} for each other server. */
    static JdbcClientFactory connect(JdbcTopology topology, Duration catchUp) {
        return connect(topology, catchUp, true);
    }

    private static JdbcClientFactory connect(JdbcTopology topology, Duration catchUp, boolean emptyTables) {
        Objects.requireNonNull(topology, "topology");
        String[] primary = prepare(topology.primary(), emptyTables);
        Set<String> checked = new HashSet<>(Set.of(topology.primary().url()));
        for (JdbcTarget node : topology.nodes()) {
            if (checked.add(node.url())) {
                check(node, false, catchUp, emptyTables);
            }
        }
        String readIsolation = topology.readNode() == null ? null
                : check(topology.readNode(), true, catchUp, emptyTables);
        return new JdbcClientFactory(topology, primary[0], primary[1], readIsolation);
    }

    /**
     * Creates the tables if missing, empties them if asked, and runs the test transaction;
     * returns {description, isolation}.
     */
    private static String[] prepare(JdbcTarget target, boolean emptyTables) {
        String step = "connect";
        try (Connection c = open(target)) {
            String description = c.getMetaData().getDatabaseProductName() + " "
                    + c.getMetaData().getDatabaseProductVersion();
            step = (emptyTables ? "create and empty the tables " : "create the tables ") + target.appendTable() + " and "
                    + target.registerTable();
            c.setAutoCommit(true);
            Dialect d = target.dialect();
            try (Statement s = c.createStatement()) {
                createTable(s, d, d.createAppendTable(target.appendTable()));
                createTable(s, d, d.createRegisterTable(target.registerTable()));
                if (emptyTables) {
                    s.execute("DELETE FROM " + target.appendTable());
                    s.execute("DELETE FROM " + target.registerTable());
                }
            }
            step = "run a test transaction at " + target.isolation().cliName();
            configure(c, target);
            probe(c, target, false);
            step = "read the session's isolation level";
            return new String[] {description, isolationOf(c, d)};
        } catch (SQLException e) {
            throw setupFailure(target, step, e);
        }
    }

    /**
     * Waits until {@code server} shows both tables empty, then runs the test transaction there
     * (read-only for the read target); returns the session's isolation level as the server names it.
     */
    private static String check(JdbcTarget server, boolean readOnly, Duration catchUp, boolean emptyTables) {
        String step = "connect";
        try (Connection c = open(server)) {
            step = "see the tables the first --target created" + (emptyTables ? " and emptied" : "");
            c.setAutoCommit(true);
            awaitTables(c, server, catchUp, emptyTables);
            step = "run a" + (readOnly ? " read-only" : "") + " test transaction at " + server.isolation().cliName()
                    + (readOnly ? " (--read-isolation sets the read target's level)" : "");
            configure(c, server);
            probe(c, server, readOnly);
            step = "read the session's isolation level";
            return isolationOf(c, server.dialect());
        } catch (SQLException e) {
            throw setupFailure(server, step, e);
        }
    }

    /**
     * Polls until both tables exist and, if {@code empty}, are empty on {@code server}, for at
     * most {@code catchUp}: a replica replays the primary's CREATE and DELETE a little later.
     */
    private static void awaitTables(Connection c, JdbcTarget server, Duration catchUp, boolean empty)
            throws SQLException {
        long deadline = System.nanoTime() + catchUp.toNanos();
        while (true) {
            long rows;
            try (Statement s = c.createStatement()) {
                rows = count(s, server.appendTable()) + count(s, server.registerTable());
            } catch (SQLException e) {
                if (Dialect.connectionLost(e) || System.nanoTime() > deadline) {
                    throw e;
                }
                rows = -1; // the tables are not there yet
            }
            if (empty ? rows == 0 : rows >= 0) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(server.redactedUrl() + " still holds " + rows + " row(s) in "
                        + server.appendTable() + " and " + server.registerTable() + " " + catchUp.toSeconds()
                        + " s after the first --target emptied them: is it a node or replica of that database?");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + server.redactedUrl(), e);
            }
        }
    }

    private static long count(Statement s, String table) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Opens a client for {@code process} on {@code worker}'s node (and the read target); a failure
     * to connect is an {@link IllegalStateException}.
     */
    @Override
    public DatabaseClient open(int worker, long process) {
        return new JdbcClient(this, worker);
    }

    /** A connection to {@code server} for transactions: auto-commit off, at its isolation level. */
    Connection workConnection(JdbcTarget server) throws SQLException {
        Connection c = open(server);
        try {
            configure(c, server);
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

    /** The primary: the first node, on which the run created and emptied its tables. */
    public JdbcTarget target() {
        return topology.primary();
    }

    public JdbcTopology topology() {
        return topology;
    }

    /** The primary's product name and version, e.g. {@code PostgreSQL 17.5}. */
    public String serverDescription() {
        return serverDescription;
    }

    /** The primary session's isolation level as the server names it, e.g. {@code REPEATABLE-READ}. */
    public String serverIsolation() {
        return serverIsolation;
    }

    /** The read target session's isolation level as that server names it, or null without a read target. */
    public String readServerIsolation() {
        return readServerIsolation;
    }

    /**
     * Failed and unknown transactions so far, by outcome and SQLSTATE, sorted; those on the read
     * target end in {@code (read target)}.
     */
    public Map<String, Long> failureCounts() {
        Map<String, Long> counts = new TreeMap<>();
        failures.forEach((k, v) -> counts.put(k, v.sum()));
        return counts;
    }

    /** The first database message seen for each key of {@link #failureCounts()}. */
    public Map<String, String> failureExamples() {
        return new TreeMap<>(examples);
    }

    void countFailure(String outcome, SQLException e, JdbcTarget server) {
        String key = outcome + " " + (e.getSQLState() == null ? "no-sqlstate" : e.getSQLState())
                + (e.getErrorCode() == 0 ? "" : " (" + e.getErrorCode() + ")")
                + (server == topology.readNode() ? READ_TARGET : "");
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

    /**
     * Appends, writes and reads the probe key in one transaction at the target's level, then rolls
     * back; with {@code readOnly}, only reads.
     */
    private static void probe(Connection c, JdbcTarget target, boolean readOnly) throws SQLException {
        try {
            try (Upserts upserts = new Upserts(c, target);
                 PreparedStatement read = c.prepareStatement(Dialect.read(target.workload() == Workload.LIST_APPEND
                         ? target.appendTable() : target.registerTable()))) {
                if (!readOnly) {
                    upserts.append(PROBE_KEY, "0");
                    upserts.write(PROBE_KEY, 0);
                }
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

    private static void createTable(Statement s, Dialect d, String sql) throws SQLException {
        try {
            s.execute(sql);
        } catch (SQLException e) {
            if (!d.alreadyExists(e)) {
                throw e;
            }
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
        } else if ("25006".equals(state)) {
            cause = "the server is read-only, so it cannot " + step + " (a replica belongs in --read-target)";
        } else if (state.startsWith("08") || "connect".equals(step)) {
            cause = "cannot reach the database";
        } else {
            cause = "cannot " + step + who;
        }
        String fix = step.contains("test transaction") ? target.dialect().levelsOffered(target.isolation()) : null;
        return new IllegalStateException(cause + " at " + target.redactedUrl() + ": " + firstLine(e.getMessage())
                + (state.isEmpty() ? "" : " [SQLSTATE " + state + "]") + (fix == null ? "" : "; " + fix), e);
    }

    static String firstLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        int nl = message.indexOf('\n');
        return (nl < 0 ? message : message.substring(0, nl)).trim();
    }
}
