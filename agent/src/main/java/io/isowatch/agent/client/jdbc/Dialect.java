package io.isowatch.agent.client.jdbc;

import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;

/**
 * What differs between the databases isowatch drives: table definitions, the upserts and the
 * driver settings. A list is a comma-separated text column extended by an atomic concatenation inside
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

    /** Appends parameter 2 (text) to the list at key parameter 1, creating the row if needed. */
    abstract String append(String table);

    /** Sets the register at key parameter 1 to parameter 2. */
    abstract String write(String table);

    /** A query returning the session's isolation level as the server names it. */
    abstract String isolationQuery();

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
        throw new IllegalArgumentException("unsupported JDBC URL '" + JdbcTarget.redact(url)
                + "'; expected jdbc:postgresql://, jdbc:mariadb://, jdbc:mysql://, jdbc:h2: or jdbc:hsqldb:");
    }

    /**
     * True when the server reported, for a failed {@code COMMIT}, that it rolled the transaction
     * back: a serialization failure or deadlock ({@code 40001}, {@code 40P01}) or a constraint
     * checked at commit ({@code 40002}). Anything else at commit (a lost connection, a timeout,
     * {@code 40003} "statement completion unknown") leaves the outcome unknown.
     */
    static boolean rolledBackAtCommit(SQLException e) {
        for (SQLException x = e; x != null; x = x.getNextException()) {
            String state = x.getSQLState();
            if ("40001".equals(state) || "40P01".equals(state) || "40002".equals(state)) {
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
