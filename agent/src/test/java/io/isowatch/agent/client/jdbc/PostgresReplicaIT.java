package io.isowatch.agent.client.jdbc;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.checker.Verdict;
import io.isowatch.checker.Workload;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A PostgreSQL primary and a streaming-replication hot standby, both started here from zonky's
 * binaries, driven as {@code agent run --target PRIMARY --read-target STANDBY} drives them:
 * transactions that write run on the primary at SERIALIZABLE, read-only ones on the standby at
 * REPEATABLE READ (the standby refuses SERIALIZABLE).
 *
 * <p>zonky bundles no {@code pg_basebackup}, so the standby is a copy of the primary's data
 * directory taken while the primary is stopped (a consistent base backup), started with
 * {@code standby.signal} and a {@code primary_conninfo}; PostgreSQL's manual, "Log-Shipping
 * Standby Servers", describes both files.
 */
class PostgresReplicaIT {

    private static EmbeddedPostgres primary;
    private static EmbeddedPostgres standby;
    private static String primaryUrl;
    private static String standbyUrl;

    @BeforeAll
    static void startPrimaryAndStandby() throws Exception {
        Path dir = JdbcHistories.buildDir().resolve("replica-postgres");
        deleteRecursively(dir);
        Path primaryData = dir.resolve("primary");
        Path standbyData = dir.resolve("standby");
        Files.createDirectories(dir);
        // initdb, one start and a clean stop: the stopped data directory is a consistent base backup.
        server(dir, primaryData).start().close();
        copyRecursively(primaryData, standbyData);
        primary = server(dir, primaryData).start();
        Files.writeString(standbyData.resolve("standby.signal"), "");
        Files.writeString(standbyData.resolve("postgresql.auto.conf"), "primary_conninfo = 'host=localhost port="
                + primary.getPort() + " user=postgres application_name=isowatch_standby'\n", StandardOpenOption.APPEND);
        standby = server(dir, standbyData).start();
        // Not getJdbcUrl(): it puts user=postgres in the URL, which overrides the user we pass.
        primaryUrl = "jdbc:postgresql://localhost:" + primary.getPort() + "/postgres";
        standbyUrl = "jdbc:postgresql://localhost:" + standby.getPort() + "/postgres";
    }

    /**
     * A server on {@code data}, initialised by initdb (trust authentication, which includes
     * {@code host replication all 127.0.0.1/32 trust}) when the directory is new.
     */
    private static EmbeddedPostgres.Builder server(Path workDir, Path data) {
        return EmbeddedPostgres.builder()
                .setOverrideWorkingDirectory(workDir.toFile())
                .setDataDirectory(data)
                .setCleanDataDirectory(false)
                .setServerConfig("fsync", "off")
                .setServerConfig("max_connections", "100")
                .setServerConfig("wal_level", "replica")
                .setServerConfig("max_wal_senders", "4")
                .setServerConfig("hot_standby", "on")
                // See PostgresIsolationIT: contended upserts deadlock often, and 1 s stalls every client.
                .setServerConfig("deadlock_timeout", "10ms");
    }

    @AfterAll
    static void stop() throws Exception {
        if (standby != null) {
            standby.close();
        }
        if (primary != null) {
            primary.close();
        }
    }

    @Test
    void standby_replaysWhatThePrimaryCommits() throws Exception {
        long marker = System.nanoTime();
        try (Connection p = DriverManager.getConnection(primaryUrl, "postgres", null);
             Statement s = p.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS replica_check (v BIGINT NOT NULL)");
            s.execute("INSERT INTO replica_check VALUES (" + marker + ")");
            try (ResultSet rs = s.executeQuery("SELECT state FROM pg_stat_replication")) {
                assertTrue(rs.next(), "the primary should have one WAL sender");
                assertEquals("streaming", rs.getString(1));
            }
        }
        try (Connection c = DriverManager.getConnection(standbyUrl, "postgres", null);
             Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT pg_is_in_recovery()")) {
                assertTrue(rs.next() && rs.getBoolean(1), "the standby should be in recovery");
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            boolean seen = false;
            while (!seen && System.nanoTime() < deadline) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM replica_check WHERE v = " + marker)) {
                    seen = rs.next() && rs.getLong(1) == 1;
                } catch (SQLException e) {
                    // The CREATE TABLE is not replayed yet.
                }
                if (!seen) {
                    Thread.sleep(20);
                }
            }
            assertTrue(seen, "a row committed on the primary should become visible on the standby");
        }
    }

    private static JdbcTopology topology(String prefix) {
        JdbcTarget writes = JdbcTarget.of(primaryUrl, JdbcIsolation.SERIALIZABLE, Workload.LIST_APPEND)
                .withCredentials("postgres", null).withTablePrefix(prefix);
        return JdbcTopology.of(writes, List.of(primaryUrl), standbyUrl, JdbcIsolation.REPEATABLE_READ);
    }

    @Test
    void serializableOnTheStandby_isRefusedWithTheOptionToUse() {
        JdbcTarget writes = JdbcTarget.of(primaryUrl, JdbcIsolation.SERIALIZABLE, Workload.LIST_APPEND)
                .withCredentials("postgres", null).withTablePrefix("refused");
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> JdbcClientFactory.connect(JdbcTopology.of(writes, List.of(primaryUrl), standbyUrl, null)));
        assertTrue(e.getMessage().contains("--read-isolation") && e.getMessage().contains("hot standby"),
                e.getMessage());
    }

    @Test
    void standbyAsAWriteTarget_isNamedReadOnly() {
        JdbcTarget writes = JdbcTarget.of(primaryUrl, JdbcIsolation.REPEATABLE_READ, Workload.LIST_APPEND)
                .withCredentials("postgres", null).withTablePrefix("readonly");
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> JdbcClientFactory.connect(JdbcTopology.of(writes, List.of(primaryUrl, standbyUrl), null, null)));
        assertTrue(e.getMessage().startsWith("the server is read-only") && e.getMessage().contains("--read-target"),
                e.getMessage());
    }

    @Test
    void readsOnTheStandby_explore() {
        int runs = Integer.getInteger("replica.runs", 1);
        for (int i = 0; i < runs; i++) {
            JdbcHistories.Run run = JdbcHistories.run(System.getProperty("replica.name", "replica") + "-" + i,
                    topology("replica"), JdbcHistories.contended(100 + i)
                            .withTxnLimit(Integer.getInteger("replica.txns", 20_000))
                            .withReadProbability(Double.parseDouble(System.getProperty("replica.reads", "0.5")))
                            .withTxnLength(Integer.getInteger("replica.min", 1), Integer.getInteger("replica.max", 4))
                            .withKeyCount(Integer.getInteger("replica.keys", 4)));
            JdbcHistories.LADDER.forEach(run::check);
            run.publish();
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Copies a stopped server's data directory, keeping its permissions (PostgreSQL insists on 0700). */
    private static void copyRecursively(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            paths.forEach(p -> {
                Path target = to.resolve(from.relativize(p));
                try {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        Files.deleteIfExists(to.resolve("postmaster.pid"));
    }
}
