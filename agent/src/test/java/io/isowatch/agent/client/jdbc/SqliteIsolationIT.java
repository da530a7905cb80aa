package io.isowatch.agent.client.jdbc;

import io.isowatch.anomaly.AnomalyType;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * {@code busy_timeout} is 20 s. Table names start {@code sqlite3_}: SQLite reserves {@code sqlite_}.
 */
class SqliteIsolationIT {

    /**
     * How long a statement waits for a lock before SQLITE_BUSY. In rollback-journal mode a client
     * connecting during the run must read the schema under a SHARED lock, which 16 busy writers
     * seldom leave free: with 5 s, connects failed; 20 s never did.
     */
    private static final String BUSY_TIMEOUT = "busy_timeout=20000";

    /**
     * A new database file in the given journal mode. Rollback-journal mode (DELETE) is SQLite's
     * default, and the URL does not name it: the driver runs the URL's pragmas at every connect,
     * and {@code PRAGMA journal_mode} needs a lock that a busy database refuses at once, so a
     * client reconnecting during a commit would fail to connect. WAL mode is stored in the file
     * once set, so naming it again at connect costs no lock.
     */
    private static JdbcHistories.Server file(String name, String journalMode) {
        Path db = JdbcHistories.buildDir().resolve(name);
        try {
            Files.deleteIfExists(db);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String mode = journalMode.equals("DELETE") ? "" : "&journal_mode=" + journalMode;
        return new JdbcHistories.Server("jdbc:sqlite:" + db + "?" + BUSY_TIMEOUT + mode, null, null);
    }

    static List<LevelExpectation> levels(String mode) {
        return List.of(
                LevelExpectation.of("sqlite3-" + mode + "-serializable", JdbcIsolation.SERIALIZABLE, 51)
                        .validUnder("serializable").failsWith("fail no-sqlstate (5)"),
                LevelExpectation.of("sqlite3-" + mode + "-read-committed", JdbcIsolation.READ_COMMITTED, 52)
                        .validUnder("serializable"),
                LevelExpectation.of("sqlite3-" + mode + "-read-uncommitted", JdbcIsolation.READ_UNCOMMITTED, 53)
                        .validUnder("serializable"),
                LevelExpectation.of("sqlite3-" + mode + "-ru-shared-cache", JdbcIsolation.READ_UNCOMMITTED, 54)
                        .withSettings("&shared_cache=true").validUnder("read-uncommitted"),
                LevelExpectation.of("sqlite3-" + mode + "-serializable-register", JdbcIsolation.SERIALIZABLE, 55)
                        .registers(3_000, 1_000).validUnder("serializable"));
    }

    @TestFactory
    Stream<DynamicTest> contendedRuns_matchTheManualsPromises() {
        return Stream.concat(JdbcHistories.tests(file("isowatch-sqlite-wal.db", "WAL"), levels("wal")),
                JdbcHistories.tests(file("isowatch-sqlite-journal.db", "DELETE"), levels("journal")));
    }
}
