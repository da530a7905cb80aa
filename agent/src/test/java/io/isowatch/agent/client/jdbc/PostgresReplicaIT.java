package io.isowatch.agent.client.jdbc;

import io.isowatch.agent.workload.WorkloadOptions;
import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.checker.Validity;
import io.isowatch.checker.Verdict;
import io.isowatch.checker.Workload;
import io.isowatch.history.OpType;
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
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> JdbcClientFactory.connect(JdbcTopology.of(writes, List.of(primaryUrl), standbyUrl, null)));
        assertTrue(e.getMessage().contains("--read-isolation") && e.getMessage().contains("hot standby"),
                e.getMessage());
    }

    @Test
    void standbyAsAWriteTarget_isNamedReadOnly() {
        JdbcTarget writes = JdbcTarget.of(primaryUrl, JdbcIsolation.REPEATABLE_READ, Workload.LIST_APPEND)
                .withCredentials("postgres", null).withTablePrefix("readonly");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> JdbcClientFactory.connect(JdbcTopology.of(writes, List.of(primaryUrl, standbyUrl), null, null)));
        assertTrue(e.getMessage().startsWith("the server is read-only") && e.getMessage().contains("--read-target"),
                e.getMessage());
    }

    /** Any realtime cycle: a read that misses a write that had completed before the read began. */
    private static final Set<AnomalyType> REALTIME = EnumSet.of(AnomalyType.G0_REALTIME, AnomalyType.G1C_REALTIME,
            AnomalyType.G_SINGLE_ITEM_REALTIME, AnomalyType.G_NONADJACENT_ITEM_REALTIME, AnomalyType.G2_ITEM_REALTIME);

    /**
     * Expectation A: the standby replays the primary's commits a few milliseconds late, so a
     * read-only transaction that starts after a write completed may miss it: realtime anomalies
     * under strict-serializable, in every run. Each read still sees a prefix of the primary's
     * commits, and the history stays snapshot-isolated.
     */
    @Test
    void readsOnTheStandby_areStaleInRealTime_butSnapshotIsolated() throws Exception {
        Map<String, Verdict> verdicts = judge("replica-stale-reads", "replica_a",
                JdbcHistories.contended(101).toBuilder().txnLimit(10_000).build(), JdbcHistories.LADDER);
        Verdict strict = verdicts.get("strict-serializable");
        assertEquals(Validity.FALSE, strict.valid());
        assertTrue(strict.anomalyTypes().stream().anyMatch(REALTIME::contains), strict.anomalyTypes()::toString);
    }

    /**
     * Expectation B: PostgreSQL's manual (Hot Standby; Serializable Isolation Level) warns that a
     * REPEATABLE READ transaction on the standby "can sometimes see a transient state that is
     * inconsistent with any serial execution of the transactions on the primary". The workload
     * gives that a chance: reads 70% of micro-ops, 2 to 4 per transaction, so many read-only
     * transactions read several hot keys on the standby while the primary's SERIALIZABLE writers
     * mostly read one key and append to another (the pivot of the read-only anomaly). Whether a
     * G2-item through a read-only transaction shows up is reported per run, not asserted: it does
     * not show in every run (docs/findings.md).
     */
    @Test
    void readOnlyTransactionsOnTheStandby_giveTheReadOnlyAnomalyAChance() throws Exception {
        // Not strict-serializable: the stale reads of expectation A are here too, and checking
        // realtime order on this history took up to 70 s on a loaded 2-core machine.
        judge("replica-read-only-anomaly", "replica_b", JdbcHistories.contended(102).toBuilder().readProbability(0.7)
                .txnLength(2, 4).build(), JdbcHistories.LADDER.subList(0,
                        JdbcHistories.LADDER.indexOf("serializable") + 1));
    }

    /**
     * Runs {@code options} with reads on the standby, checks the history against {@code models},
     * reports how many findings go through a read-only transaction, and asserts what every run
     * showed: read-only transactions committed on the standby, and snapshot isolation held.
     */
    private static Map<String, Verdict> judge(String name, String prefix, WorkloadOptions options, List<String> models)
            throws Exception {
        long before = standbyCommits();
        JdbcHistories.Run run = JdbcHistories.run(name, topology(prefix), options);
        try {
            Map<String, Verdict> verdicts = new LinkedHashMap<>();
            models.forEach(model -> verdicts.put(model, run.check(model)));
            verdicts.forEach((model, v) -> v.anomalies().forEach((type, findings) -> run.report().append(String.format(
                    Locale.ROOT, "%s %s: %d of %d finding(s) have a read-only (standby) transaction in the cycle%n",
                    model, type, findings.stream().filter(PostgresReplicaIT::throughReadOnly).count(),
                    findings.size()))));
            long readOnlyOk = run.ops().stream().filter(op -> op.type() == OpType.OK
                    && JdbcTopology.readOnly(op.value())).count();
            long standbyCommitted = awaitStandbyCommits(before, readOnlyOk);
            run.report().append(String.format(Locale.ROOT, "%,d read-only transactions committed; the standby counted "
                    + "%,d commits%n", readOnlyOk, standbyCommitted));
            assertTrue(run.result().ok() >= options.txnLimit() / 4, run.result()::toString);
            assertTrue(standbyCommitted >= readOnlyOk, () -> "read-only transactions should run on the standby: "
                    + readOnlyOk + " committed, the standby counted " + standbyCommitted);
            assertEquals(Validity.TRUE, verdicts.get("snapshot-isolation").valid(), () -> run.report().toString());
            return verdicts;
        } finally {
            run.publish();
        }
    }

    /** True when the finding is a cycle through a transaction that only read (so ran on the standby). */
    private static boolean throughReadOnly(Finding f) {
        return f instanceof Finding.Cycle && f.txns().stream().anyMatch(t -> JdbcTopology.readOnly(t.completion().value()));
    }

    /** Transactions committed on the standby so far, as its statistics count them. */
    private static long standbyCommits() throws SQLException {
        try (Connection c = DriverManager.getConnection(standbyUrl, "postgres", null); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT xact_commit FROM pg_stat_database WHERE datname = 'postgres'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The standby's commits since {@code before}, waiting up to 5 s for closed sessions to flush their counts. */
    private static long awaitStandbyCommits(long before, long expected) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        long seen = standbyCommits() - before;
        while (seen < expected && System.nanoTime() < deadline) {
            Thread.sleep(100);
            seen = standbyCommits() - before;
        }
        return seen;
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
