package io.isowatch.agent.client.jdbc;

import io.isowatch.anomaly.AnomalyType;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

/**
 * Apache Derby 10.16 embedded in this JVM as an in-memory database: 16 clients on 4 hot keys per
 * level, judged against the Derby Developer's Guide ("Isolation levels and concurrency", table
 * of allowable anomalies): SERIALIZABLE (RR) allows no dirty, non-repeatable or phantom reads;
 * REPEATABLE READ (RS) allows phantoms; READ COMMITTED (CS) non-repeatable reads and phantoms;
 * READ UNCOMMITTED (UR) dirty reads too. Derby is lock-based (row locks, previous-key locking
 * at RR). What the runs show beyond that is in docs/findings.md.
 */
class DerbyIsolationIT {

    private static final JdbcHistories.Server DERBY =
            new JdbcHistories.Server("jdbc:derby:memory:isowatch-derby;create=true", "isowatch", "");

    static List<LevelExpectation> levels() {
        return List.of(
                LevelExpectation.of("derby-serializable", JdbcIsolation.SERIALIZABLE, 41)
                        .validUnder("strict-serializable").failsWith("fail 40001"),
                LevelExpectation.of("derby-repeatable-read", JdbcIsolation.REPEATABLE_READ, 42)
                        .validUnder("read-committed")
                        .shows("serializable", AnomalyType.G2_ITEM, AnomalyType.G_SINGLE_ITEM),
                LevelExpectation.of("derby-read-committed", JdbcIsolation.READ_COMMITTED, 43)
                        .validUnder("read-committed").shows("snapshot-isolation"),
                LevelExpectation.of("derby-read-uncommitted", JdbcIsolation.READ_UNCOMMITTED, 44)
                        .validUnder("read-uncommitted")
                        .shows("read-committed", AnomalyType.G1A, AnomalyType.G1B, AnomalyType.G1C),
                LevelExpectation.of("derby-serializable-register", JdbcIsolation.SERIALIZABLE, 45)
                        .registers(3_000, 1_000).validUnder("strict-serializable"));
    }

    @TestFactory
    Stream<DynamicTest> contendedRuns_matchTheManualsPromises() throws SQLException {
        start();
        return JdbcHistories.tests(DERBY, levels());
    }

    /**
     * Creates the database with lock timeouts fit for contention. Derby looks for a deadlock only
     * after a lock wait of {@code derby.locks.deadlockTimeout} (20 s by default; whole seconds),
     * and every other client queues behind the locked rows meanwhile: even 1 s held 16 clients
     * to about 5 txn/s. 0 looks at once, when a wait begins, which is when a cycle closes. A wait
     * of 2 s without a deadlock found ends in 40XL1 (a few per run: two waits that close a cycle
     * at the same moment can each miss it; 10 s made each such miss stall the run). Neither changes what a level isolates. derby.log
     * goes to the build directory, not the working directory.
     */
    private static void start() throws SQLException {
        System.setProperty("derby.stream.error.file", JdbcHistories.buildDir().resolve("derby.log").toString());
        try (Connection c = DriverManager.getConnection(DERBY.url(), DERBY.user(), DERBY.password());
             Statement s = c.createStatement()) {
            s.execute("CALL SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY('derby.locks.deadlockTimeout', '0')");
            s.execute("CALL SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY('derby.locks.waitTimeout', '2')");
        }
    }
}
