package io.isowatch.agent.client.jdbc;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import java.util.function.Predicate;

/**
 * What differs between the databases isowatch drives: table definitions, the upserts, the
 * driver settings and which errors from {@code COMMIT} mean that nothing was committed. A list is a comma-separated text column extended by an atomic concatenation inside
 * the upsert, so an append never reads the list into the client; a register is a BIGINT column
 * overwritten by its upsert.
 */
public enum Dialect {

    /** PostgreSQL (and compatible servers reached with {@code jdbc:postgresql:}). */
    POSTGRESQL("PostgreSQL") {
        @Override
        String createAppendTable(String table) {
            return "CREATE TABLE IF NOT EXISTS " + table + " (k BIGINT PRIMARY KEY, v TEXT NOT NULL)";
        }

        @Override
        String createRegisterTable(String table) {
            return "CREATE TABLE IF NOT EXISTS " + table + " (k BIGINT PRIMARY KEY, v BIGINT NOT NULL)";
        }

        @Override
        String append(String table) {
            return "INSERT INTO " + table + " AS t (k, v) VALUES (?, ?) "
                    + "ON CONFLICT (k) DO UPDATE SET v = t.v || ',' || EXCLUDED.v";
        }

        @Override
        String write(String table) {
            return "INSERT INTO " + table + " (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v";
        }

        @Override
        String isolationQuery() {
            return "SHOW transaction_isolation";
        }

        @Override
        void connectionProperties(Properties p, int connectTimeoutSeconds) {
            p.setProperty("connectTimeout", Integer.toString(connectTimeoutSeconds)); // seconds, unlike MariaDB's
            p.setProperty("ApplicationName", "isowatch");
        }
    },

    /** MariaDB and MySQL (InnoDB), reached with {@code jdbc:mariadb:} or {@code jdbc:mysql:}. */
    MARIADB("MariaDB/MySQL") {
        @Override
        String createAppendTable(String table) {
            return "CREATE TABLE IF NOT EXISTS " + table + " (k BIGINT PRIMARY KEY, v LONGTEXT NOT NULL) ENGINE=InnoDB";
        }

        @Override
        String createRegisterTable(String table) {
            return "CREATE TABLE IF NOT EXISTS " + table + " (k BIGINT PRIMARY KEY, v BIGINT NOT NULL) ENGINE=InnoDB";
        }

        @Override
        String append(String table) {
            return "INSERT INTO " + table + " (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = CONCAT(v, ',', VALUES(v))";
        }

        @Override
        String write(String table) {
            return "INSERT INTO " + table + " (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v)";
        }

        @Override
        String isolationQuery() {
            // transaction_isolation since MariaDB 11.1 and MySQL 5.7.20; tx_isolation before.
            return "SELECT @@SESSION.transaction_isolation";
        }
    },

    /**
     * H2 2.x (MVStore), embedded ({@code jdbc:h2:mem:}, {@code jdbc:h2:file:}) or as a server
     * ({@code jdbc:h2:tcp:}). The append is a standard {@code MERGE}, whose matched branch extends
     * the list in place; the register write is H2's {@code MERGE ... KEY}.
     */
    H2("H2") {
        @Override
        String createAppendTable(String table) {
            return "CREATE TABLE IF NOT EXISTS " + table + " (k BIGINT PRIMARY KEY, v VARCHAR NOT NULL)";
        }

        @Override
        String createRegisterTable(String table) {
            return "CREATE TABLE IF NOT EXISTS " + table + " (k BIGINT PRIMARY KEY, v BIGINT NOT NULL)";
        }

        @Override
        String append(String table) {
            return "MERGE INTO " + table + " AS d USING (VALUES (CAST(? AS BIGINT), CAST(? AS VARCHAR))) AS s(k, v) "
                    + "ON d.k = s.k WHEN MATCHED THEN UPDATE SET v = d.v || ',' || s.v "
                    + "WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k, s.v)";
        }

        @Override
        String write(String table) {
            return "MERGE INTO " + table + " (k, v) KEY (k) VALUES (?, ?)";
        }

        @Override
        String isolationQuery() {
            return "SELECT ISOLATION_LEVEL FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID = SESSION_ID()";
        }

        @Override
        void connectionProperties(Properties p, int connectTimeoutSeconds) {
            // H2 refuses settings it does not know, and an embedded database has no connect timeout.
        }
    },

    /**
     * HyperSQL (HSQLDB) 2.x, in any of its transaction control modes (LOCKS, MVLOCKS, MVCC: the
     * {@code hsqldb.tx} URL property or {@code SET DATABASE TRANSACTION CONTROL}). Both upserts are
     * standard {@code MERGE}s.
     */
    HSQLDB("HSQLDB") {
        @Override
        String createAppendTable(String table) {
            return "CREATE TABLE IF NOT EXISTS " + table + " (k BIGINT PRIMARY KEY, v VARCHAR(100000) NOT NULL)";
        }

        @Override
        String createRegisterTable(String table) {
            return "CREATE TABLE IF NOT EXISTS " + table + " (k BIGINT PRIMARY KEY, v BIGINT NOT NULL)";
        }

        @Override
        String append(String table) {
            return "MERGE INTO " + table + " AS d USING (VALUES (CAST(? AS BIGINT), CAST(? AS VARCHAR(100000)))) "
                    + "AS s(k, v) ON d.k = s.k WHEN MATCHED THEN UPDATE SET v = d.v || ',' || s.v "
                    + "WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k, s.v)";
        }

        @Override
        String write(String table) {
            return "MERGE INTO " + table + " AS d USING (VALUES (CAST(? AS BIGINT), CAST(? AS BIGINT))) AS s(k, v) "
                    + "ON d.k = s.k WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k, s.v)";
        }

        @Override
        String isolationQuery() {
            return "VALUES (SESSION_ISOLATION_LEVEL())";
        }

        @Override
        void connectionProperties(Properties p, int connectTimeoutSeconds) {
            // The driver takes connection properties as database settings; pass none.
        }
    },

    /**
     * Apache Derby 10.x, embedded ({@code jdbc:derby:memory:NAME;create=true}, {@code
     * jdbc:derby:DIR}) or as a network server ({@code jdbc:derby://HOST:PORT/NAME}, with Derby's
     * client driver on the classpath). An upsert is an {@code UPDATE} and, when it matched no row,
     * an {@code INSERT}, in the same transaction; two clients inserting the same new key meet a
     * unique violation (23505) or a deadlock, and the loser's transaction fails. Not Derby's
     * {@code MERGE}: under 16 contended clients it fails with errors the statement should not
     * raise (21000 cardinality violations, 40XD0 "Container has been closed", a
     * NullPointerException that closes the session); not investigated further, so not reported
     * as a finding. Derby has no {@code CREATE TABLE IF NOT
     * EXISTS}; "already exists" (X0Y32) is ignored instead. Deadlocks (40001) and lock wait
     * timeouts (40XL1, 40XL2) roll the whole transaction back.
     */
    DERBY("Derby") {
        @Override
        String createAppendTable(String table) {
            return "CREATE TABLE " + table + " (k BIGINT PRIMARY KEY, v VARCHAR(32672) NOT NULL)";
        }

        @Override
        String createRegisterTable(String table) {
            return "CREATE TABLE " + table + " (k BIGINT PRIMARY KEY, v BIGINT NOT NULL)";
        }

        @Override
        String append(String table) {
            return "UPDATE " + table + " SET v = v || ',' || CAST(? AS VARCHAR(32672)) WHERE k = ?";
        }

        @Override
        String write(String table) {
            return "UPDATE " + table + " SET v = ? WHERE k = ?";
        }

        @Override
        String insert(String table) {
            return "INSERT INTO " + table + " (v, k) VALUES (?, ?)";
        }

        @Override
        boolean valueFirst() {
            return true;
        }

        @Override
        boolean alreadyExists(SQLException e) {
            return "X0Y32".equals(e.getSQLState());
        }

        @Override
        String isolationQuery() {
            return "VALUES CURRENT ISOLATION"; // UR, CS, RS or RR
        }

        @Override
        boolean notCommitted(SQLException e) {
            return super.notCommitted(e) || hasState(e, "40XL1", "40XL2");
        }

        @Override
        void connectionProperties(Properties p, int connectTimeoutSeconds) {
            // Embedded Derby has no connect timeout; its lock timeouts are database properties
            // (derby.locks.waitTimeout, derby.locks.deadlockTimeout), set by whoever owns the database.
        }
    },

    /**
     * SQLite 3 through xerial's driver ({@code jdbc:sqlite:FILE}; the journal mode, e.g. {@code
     * ?journal_mode=WAL}, and {@code busy_timeout} in milliseconds go in the URL). Upserts are
     * {@code INSERT ... ON CONFLICT DO UPDATE}. The driver accepts every JDBC level, but SQLite has
     * one: serializable. {@code READ_UNCOMMITTED} sets {@code PRAGMA read_uncommitted}, which only
     * matters between connections sharing a cache ({@code ?shared_cache=true}); the other levels
     * clear it.
     *
     * <p>Transactions are always deferred ({@code BEGIN}), whatever the URL's {@code
     * transaction_mode} says: the driver begins the next transaction inside {@code commit()},
     * right after {@code COMMIT}, and a {@code BEGIN IMMEDIATE} that then meets a busy database
     * would make {@code commit()} throw although the transaction committed, which the client
     * could not tell from a refused commit. A deferred {@code BEGIN} takes no lock and cannot be
     * busy, so an error from {@code commit()} is always the {@code COMMIT}'s. It is also SQLite's
     * own default: a transaction that read and then writes while another holds the write lock
     * fails with SQLITE_BUSY instead of waiting (which could deadlock), or with
     * SQLITE_BUSY_SNAPSHOT in WAL mode when its snapshot is no longer the latest. Those errors
     * come before {@code COMMIT}, and the client rolls back.
     */
    SQLITE("SQLite") {
        @Override
        String createAppendTable(String table) {
            return "CREATE TABLE IF NOT EXISTS " + table + " (k INTEGER PRIMARY KEY, v TEXT NOT NULL)";
        }

        @Override
        String createRegisterTable(String table) {
            return "CREATE TABLE IF NOT EXISTS " + table + " (k INTEGER PRIMARY KEY, v INTEGER NOT NULL)";
        }

        @Override
        String append(String table) {
            return "INSERT INTO " + table + " (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = v || ',' || excluded.v";
        }

        @Override
        String write(String table) {
            return "INSERT INTO " + table + " (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v";
        }

        @Override
        String isolationQuery() {
            return "SELECT 'journal_mode=' || (SELECT journal_mode FROM pragma_journal_mode) "
                    + "|| ', read_uncommitted=' || (SELECT read_uncommitted FROM pragma_read_uncommitted)";
        }

        /**
         * SQLITE_BUSY (5) or SQLITE_LOCKED (6) from {@code COMMIT}: "the transaction remains active
         * and the COMMIT can be retried later" (SQLite, "Transaction"), or SQLite rolled it back
         * itself; either way nothing was committed, and the client's rollback ends what is left.
         */
        @Override
        boolean notCommitted(SQLException e) {
            return anyInChain(e, x -> (x.getErrorCode() & 0xff) == 5 || (x.getErrorCode() & 0xff) == 6);
        }

        @Override
        void connectionProperties(Properties p, int connectTimeoutSeconds) {
            p.setProperty("transaction_mode", "DEFERRED"); // overrides the URL's; see the class comment
        }
    },

    /**
     * DuckDB in process ({@code jdbc:duckdb:FILE}; every connection of the run opens the same
     * file, and so the same database, which DuckDB allows only with the same settings). DuckDB has
     * one isolation level, snapshot isolation: the driver reports REPEATABLE_READ, refuses
     * SERIALIZABLE, and accepts READ_COMMITTED without changing anything, so ask for
     * repeatable-read. Writers conflict optimistically: the second transaction to update a row
     * fails at that statement ("Conflict on update", no SQLSTATE), and the client rolls it back.
     * Tables and upserts are PostgreSQL's ({@code INSERT ... ON CONFLICT DO UPDATE}).
     */
    DUCKDB("DuckDB") {
        // DuckDB speaks PostgreSQL's dialect for these: TEXT, BIGINT and INSERT ... ON CONFLICT.
        @Override
        String createAppendTable(String table) {
            return POSTGRESQL.createAppendTable(table);
        }

        @Override
        String createRegisterTable(String table) {
            return POSTGRESQL.createRegisterTable(table);
        }

        @Override
        String append(String table) {
            return POSTGRESQL.append(table);
        }

        @Override
        String write(String table) {
            return POSTGRESQL.write(table);
        }

        @Override
        String levelsOffered(JdbcIsolation asked) {
            return asked == JdbcIsolation.REPEATABLE_READ ? null
                    : "DuckDB offers one level, snapshot isolation, which its driver calls repeatable-read: "
                    + "pass --isolation repeatable-read";
        }

        /** DuckDB has no isolation setting to read: the report names its one level and the version. */
        @Override
        String isolationQuery() {
            return "SELECT 'snapshot isolation (the only level), ' || version()";
        }

        @Override
        void connectionProperties(Properties p, int connectTimeoutSeconds) {
            // DuckDB takes driver properties as database settings and refuses ones it does not know.
        }

        /**
         * After a failed transaction the driver's prepared statements answer "Statement was
         * closed" (08003): each conflict cost the next transaction too, 6,044 of 6,050 in a run,
         * until the client prepared them again.
         */
        @Override
        boolean closesStatementsOnFailure() {
            return true;
        }
    };

    private final String displayName;

    Dialect(String displayName) {
        this.displayName = displayName;
    }

    public String displayName() {
        return displayName;
    }

    abstract String createAppendTable(String table);

    abstract String createRegisterTable(String table);

    /**
     * Appends the value (text) to the list at the key, creating the row if needed: one statement
     * taking the key and the value, or, when {@link #insert} is not null, an {@code UPDATE} of an
     * existing row only, taking them in {@link #valueFirst()} order.
     */
    abstract String append(String table);

    /** Sets the register at the key to the value; parameters as {@link #append}'s. */
    abstract String write(String table);

    /**
     * For an engine without a one-statement upsert, the {@code INSERT} to run, in the same
     * transaction, when {@link #append} or {@link #write} updated no row; parameters as theirs.
     * Null when those statements upsert by themselves.
     */
    String insert(String table) {
        return null;
    }

    /** True when the upserts take the value before the key (as {@code UPDATE ... SET v = ? WHERE k = ?} does). */
    boolean valueFirst() {
        return false;
    }

    /** True when {@code e}, from a {@code CREATE TABLE}, says the table exists (for engines without IF NOT EXISTS). */
    boolean alreadyExists(SQLException e) {
        return false;
    }

    /** True when the driver closes a connection's prepared statements with a failed transaction. */
    boolean closesStatementsOnFailure() {
        return false;
    }

    /** A query returning the session's isolation level as the server names it. */
    abstract String isolationQuery();

    /**
     * For an engine that refuses some levels: the levels it offers and the flag that asks for one,
     * said when a test transaction at {@code asked} fails; null when the engine takes every level
     * (or {@code asked} is one it offers), so the failure is something else.
     */
    String levelsOffered(JdbcIsolation asked) {
        return null;
    }

    /** Driver settings beyond the login: a connect timeout, and a name the server shows for the session. */
    void connectionProperties(Properties p, int connectTimeoutSeconds) {
        p.setProperty("connectTimeout", Integer.toString(connectTimeoutSeconds * 1000));
    }

    static String read(String table) {
        return "SELECT v FROM " + table + " WHERE k = ?";
    }

    /**
     * The dialect of a JDBC URL.
     *
     * @throws IllegalArgumentException for a URL of another database
     */
    public static Dialect of(String url) {
        String u = url.toLowerCase(Locale.ROOT);
        if (u.startsWith("jdbc:postgresql:")) {
            return POSTGRESQL;
        }
        if (u.startsWith("jdbc:mariadb:") || u.startsWith("jdbc:mysql:")) {
            return MARIADB;
        }
        if (u.startsWith("jdbc:h2:")) {
            return H2;
        }
        if (u.startsWith("jdbc:hsqldb:")) {
            return HSQLDB;
        }
        if (u.startsWith("jdbc:derby:")) {
            return DERBY;
        }
        if (u.startsWith("jdbc:sqlite:")) {
            return SQLITE;
        }
        if (u.startsWith("jdbc:duckdb:")) {
            return DUCKDB;
        }
        throw new IllegalArgumentException("unsupported JDBC URL '" + JdbcTarget.redact(url) + "'; expected "
                + "jdbc:postgresql://, jdbc:mariadb://, jdbc:mysql://, jdbc:h2:, jdbc:hsqldb:, jdbc:derby:, jdbc:sqlite: or jdbc:duckdb:");
    }

    /**
     * True when an error from {@code COMMIT} means the transaction certainly did not commit (the
     * client then rolls back whatever is left of it). By default: the server reported that it
     * rolled the transaction back, a serialization failure or deadlock ({@code 40001}, {@code
     * 40P01}) or a constraint checked at commit ({@code 40002}). Anything else at commit (a lost
     * connection, a timeout, {@code 40003} "statement completion unknown") leaves the outcome
     * unknown.
     */
    boolean notCommitted(SQLException e) {
        return hasState(e, "40001", "40P01", "40002");
    }

    /** True when {@code e} or an exception chained to it has one of {@code states}. */
    static boolean hasState(SQLException e, String... states) {
        return anyInChain(e, x -> Arrays.asList(states).contains(x.getSQLState()));
    }

    /** True when {@code e} or an exception chained to it (getNextException) satisfies {@code test}. */
    private static boolean anyInChain(SQLException e, Predicate<SQLException> test) {
        for (SQLException x = e; x != null; x = x.getNextException()) {
            if (test.test(x)) {
                return true;
            }
            if (x.getNextException() == x) {
                break;
            }
        }
        return false;
    }

    /** True for errors that mean the connection is gone (SQLSTATE class 08, or a closed connection). */
    static boolean connectionLost(SQLException e) {
        String state = e.getSQLState();
        return (state != null && state.startsWith("08")) || e instanceof java.sql.SQLNonTransientConnectionException
                || e instanceof java.sql.SQLTransientConnectionException;
    }
}
