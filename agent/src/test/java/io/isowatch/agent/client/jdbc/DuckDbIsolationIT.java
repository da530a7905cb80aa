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
 * DuckDB 2.0 in this JVM (the driver bundles its native library) on a file database under the
 * build directory: 16 clients, each with its own connection, on 4 hot keys. DuckDB's
 * documentation promises snapshot isolation, with optimistic concurrency control between
 * writers in one process ("Concurrency"); it has no other level (see {@link Dialect#DUCKDB}).
 */
class DuckDbIsolationIT {

    /** A new, empty database file; each connection of a run opens it. */
    private static JdbcHistories.Server file(String name) {
        Path db = JdbcHistories.buildDir().resolve(name);
        try {
            Files.deleteIfExists(db);
            Files.deleteIfExists(db.resolveSibling(name + ".wal"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new JdbcHistories.Server("jdbc:duckdb:" + db, null, null);
    }

    static List<LevelExpectation> levels() {
        return List.of(
                LevelExpectation.of("duckdb-snapshot", JdbcIsolation.REPEATABLE_READ, 61)
                        .validUnder("snapshot-isolation").shows("serializable", AnomalyType.G2_ITEM),
                LevelExpectation.of("duckdb-snapshot-register", JdbcIsolation.REPEATABLE_READ, 62)
                        .registers(3_000, 1_000).validUnder("snapshot-isolation"));
    }

    @TestFactory
    Stream<DynamicTest> contendedRuns_matchTheManualsPromises() {
        return JdbcHistories.tests(file("isowatch-duckdb.db"), levels());
    }
}
