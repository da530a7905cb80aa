package io.isowatch.agent.client.jdbc;

import io.isowatch.checker.Workload;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JDBC adapter's pure parts: URLs, credentials, levels, list parsing and commit-error classification. */
class JdbcTargetTest {

    @Test
    void redact_hidesPasswordsInUserInfoAndParameters() {
        assertEquals("jdbc:postgresql://***@db:5432/x", JdbcTarget.redact("jdbc:postgresql://bob:pw@db:5432/x"));
        assertEquals("jdbc:mariadb://db/x?user=bob&password=***&a=1",
                JdbcTarget.redact("jdbc:mariadb://db/x?user=bob&password=pw&a=1"));
    }

    @Test
    void toString_neverShowsThePassword() {
        JdbcTarget t = JdbcTarget.of("jdbc:postgresql://db/x", JdbcIsolation.SERIALIZABLE, Workload.LIST_APPEND)
                .withCredentials("bob", "hunter2");
        assertFalse(t.toString().contains("hunter2"), t.toString());
    }

    @Test
    void credentialsFromEnvironment_flagsWinThenIsowatchThenPg() {
        JdbcTarget pg = JdbcTarget.of("jdbc:postgresql://db/x", JdbcIsolation.SERIALIZABLE, Workload.LIST_APPEND);
        Map<String, String> env = Map.of("PGUSER", "pguser", "PGPASSWORD", "pgpw", "ISOWATCH_DB_PASSWORD", "iwpw");
        JdbcTarget filled = pg.withCredentialsFrom(env);
        assertEquals("pguser", filled.user());
        assertEquals("iwpw", filled.password());
        assertEquals("flag", pg.withCredentials("flag", null).withCredentialsFrom(env).user());
        JdbcTarget maria = JdbcTarget.of("jdbc:mariadb://db/x", JdbcIsolation.SERIALIZABLE, Workload.LIST_APPEND);
        assertEquals(null, maria.withCredentialsFrom(env).user(), "PGUSER is PostgreSQL's");
    }

    @Test
    void mysqlUrl_goesThroughTheMariaDbDriver() {
        JdbcTarget t = JdbcTarget.of("jdbc:mysql://db:3306/x", JdbcIsolation.READ_COMMITTED, Workload.LIST_APPEND);
        assertEquals(Dialect.MARIADB, t.dialect());
        assertEquals("jdbc:mariadb://db:3306/x", t.driverUrl());
    }

    @Test
    void badTablePrefixOrUrl_isRejectedByName() {
        assertThrows(IllegalArgumentException.class, () -> JdbcTarget.of("jdbc:postgresql://db/x",
                JdbcIsolation.SERIALIZABLE, Workload.LIST_APPEND).withTablePrefix("a; DROP TABLE t"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JdbcTarget.of(
                "jdbc:oracle:thin:@db:1521:x", JdbcIsolation.SERIALIZABLE, Workload.LIST_APPEND));
        assertTrue(e.getMessage().contains("jdbc:postgresql://") && e.getMessage().contains("jdbc:h2:")
                && e.getMessage().contains("jdbc:derby:") && e.getMessage().contains("jdbc:sqlite:"), e.getMessage());
    }

    @Test
    void snapshotLevel_isH2sOnly() {
        assertEquals(6, JdbcTarget.of("jdbc:h2:mem:x", JdbcIsolation.fromName("snapshot"), Workload.LIST_APPEND)
                .isolation().jdbcLevel());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JdbcTarget.of(
                "jdbc:postgresql://db/x", JdbcIsolation.SNAPSHOT, Workload.LIST_APPEND));
        assertTrue(e.getMessage().contains("'snapshot' is H2's own level") && e.getMessage().contains("PostgreSQL"),
                e.getMessage());
    }

    @Test
    void embeddedEngineUrls_pickTheirDialects() {
        assertEquals(Dialect.DERBY, Dialect.of("jdbc:derby:memory:x;create=true"));
        assertEquals(Dialect.SQLITE, Dialect.of("jdbc:sqlite:target/x.db?journal_mode=WAL"));
        assertEquals(Dialect.HSQLDB, Dialect.of("jdbc:hsqldb:mem:x"));
        assertEquals(Dialect.H2, Dialect.of("JDBC:H2:mem:x"));
    }

    @Test
    void isolationNames_acceptCliAndSqlSpellings() {
        assertEquals(JdbcIsolation.REPEATABLE_READ, JdbcIsolation.fromName("REPEATABLE READ"));
        assertEquals(JdbcIsolation.READ_UNCOMMITTED, JdbcIsolation.fromName("read_uncommitted"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JdbcIsolation.fromName("snapshot-isolation"));
        assertTrue(e.getMessage().contains("read-uncommitted, snapshot"), e.getMessage());
    }

    @Test
    void parseList_readsCommaSeparatedElements() {
        assertArrayEquals(new long[] {1, 22, 3}, JdbcClient.parseList("1,22,3"));
        assertArrayEquals(new long[0], JdbcClient.parseList(""));
        assertThrows(IllegalStateException.class, () -> JdbcClient.parseList("1,x"));
    }

    @Test
    void commitErrors_onlyServerRollbacksAreDefiniteAborts() {
        assertTrue(Dialect.POSTGRESQL.notCommitted(new SQLException("serialization", "40001")));
        assertTrue(Dialect.POSTGRESQL.notCommitted(new SQLException("deadlock", "40P01")));
        assertFalse(Dialect.POSTGRESQL.notCommitted(new SQLException("completion unknown", "40003")));
        assertFalse(Dialect.POSTGRESQL.notCommitted(new SQLException("connection lost", "08006")));
        assertFalse(Dialect.POSTGRESQL.notCommitted(new SQLException("no state")));
    }

    @Test
    void commitErrors_derbyLockTimeoutsAndSqliteBusyAreNotCommitted() {
        assertTrue(Dialect.DERBY.notCommitted(new SQLException("deadlock", "40001")));
        assertTrue(Dialect.DERBY.notCommitted(new SQLException("lock timeout", "40XL1")));
        assertTrue(Dialect.DERBY.notCommitted(new SQLException("lock timeout, table dumped", "40XL2")));
        assertFalse(Dialect.DERBY.notCommitted(new SQLException("connection lost", "08006")));
        // xerial's driver reports SQLite's result code as the error code, with no SQLSTATE.
        assertTrue(Dialect.SQLITE.notCommitted(new SQLException("[SQLITE_BUSY] database is locked", null, 5)));
        assertTrue(Dialect.SQLITE.notCommitted(new SQLException("[SQLITE_BUSY_SNAPSHOT]", null, 517)));
        assertTrue(Dialect.SQLITE.notCommitted(new SQLException("[SQLITE_LOCKED_SHAREDCACHE]", null, 262)));
        assertFalse(Dialect.SQLITE.notCommitted(new SQLException("[SQLITE_IOERR] disk I/O error", null, 10)));
        assertFalse(Dialect.SQLITE.notCommitted(new SQLException("[SQLITE_FULL]", null, 13)));
    }
}
