package io.isowatch.agent.client.jdbc;

import io.isowatch.anomaly.AnomalyType;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.stream.Stream;

/**
 * SQLite 3.53 (xerial's sqlite-jdbc, its native library in this JVM) on a file database under
 * the build directory, in WAL mode and in rollback-journal mode (a {@code :memory:} database
 * belongs to one connection): 16 clients, each with its own connection, on 4 hot keys.
 *
 * <p>SQLite's manual ("Isolation In SQLite") promises that transactions are serializable,
 * "even if the database is being accessed by multiple connections", with one exception:
 * connections sharing a cache in one process may read uncommitted data when {@code PRAGMA
 * read_uncommitted} is on. The driver accepts every JDBC level: {@code READ_UNCOMMITTED} turns
 * the pragma on, the others turn it off. Transactions are deferred (see {@link Dialect#SQLITE}),
 * {@code busy_timeout} is 5 s.
 */
class SqliteIsolationIT {

    private static final String OPTIONS = "&busy_timeout=5000";

    private static JdbcHistories.Server file(String name, String journalMode) {
        return new JdbcHistories.Server("jdbc:sqlite:" + JdbcHistories.buildDir().resolve(name) + "?journal_mode="
                + journalMode + OPTIONS, null, null);
    }

    static List<LevelExpectation> levels(String mode) {
        return List.of(
                LevelExpectation.of("sqlite-" + mode + "-serializable", JdbcIsolation.SERIALIZABLE, 51)
                        .validUnder("serializable"),
                LevelExpectation.of("sqlite-" + mode + "-read-committed", JdbcIsolation.READ_COMMITTED, 52)
                        .validUnder("serializable"),
                LevelExpectation.of("sqlite-" + mode + "-read-uncommitted", JdbcIsolation.READ_UNCOMMITTED, 53)
                        .validUnder("serializable"),
                LevelExpectation.of("sqlite-" + mode + "-ru-shared-cache", JdbcIsolation.READ_UNCOMMITTED, 54)
                        .withSettings("&shared_cache=true"),
                LevelExpectation.of("sqlite-" + mode + "-serializable-register", JdbcIsolation.SERIALIZABLE, 55)
                        .registers(3_000, 1_000).validUnder("serializable"));
    }

    @TestFactory
    Stream<DynamicTest> contendedRuns_matchTheManualsPromises() {
        return Stream.concat(JdbcHistories.tests(file("isowatch-sqlite-wal.db", "WAL"), levels("wal")),
                JdbcHistories.tests(file("isowatch-sqlite-journal.db", "DELETE"), levels("journal")));
    }
}
