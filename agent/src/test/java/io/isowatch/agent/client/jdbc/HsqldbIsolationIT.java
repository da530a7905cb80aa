package io.isowatch.agent.client.jdbc;

import io.isowatch.anomaly.AnomalyType;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.stream.Stream;

/**
 * HSQLDB 2.7.3 embedded in this JVM, in each of its transaction control modes (MVCC, MVLOCKS, LOCKS;
 * {@code hsqldb.tx}): 16 clients on 4 hot keys per level.
 */
class HsqldbIsolationIT {

    private static final JdbcHistories.Server MVCC =
            new JdbcHistories.Server("jdbc:hsqldb:mem:isowatch-mvcc;hsqldb.tx=mvcc", "SA", "");
    private static final JdbcHistories.Server MVLOCKS =
            new JdbcHistories.Server("jdbc:hsqldb:mem:isowatch-mvlocks;hsqldb.tx=mvlocks", "SA", "");
    private static final JdbcHistories.Server LOCKS =
            new JdbcHistories.Server("jdbc:hsqldb:mem:isowatch-locks;hsqldb.tx=locks", "SA", "");

    /**
     * MVCC mode: SERIALIZABLE (and REPEATABLE READ, which the session reports as SERIALIZABLE)
     * behave as snapshot isolation, write skew included; READ UNCOMMITTED is run as READ
     * COMMITTED (the session says so). docs/findings.md has the explanations.
     */
    static List<LevelExpectation> mvcc() {
        return List.of(
                LevelExpectation.of("hsqldb-mvcc-serializable", JdbcIsolation.SERIALIZABLE, 31)
                        .validUnder("snapshot-isolation").shows("serializable", AnomalyType.G2_ITEM),
                LevelExpectation.of("hsqldb-mvcc-repeatable-read", JdbcIsolation.REPEATABLE_READ, 32)
                        .validUnder("snapshot-isolation").shows("serializable", AnomalyType.G2_ITEM),
                LevelExpectation.of("hsqldb-mvcc-read-committed", JdbcIsolation.READ_COMMITTED, 33)
                        .validUnder("read-committed").shows("snapshot-isolation"),
                LevelExpectation.of("hsqldb-mvcc-read-uncommitted", JdbcIsolation.READ_UNCOMMITTED, 34)
                        .validUnder("read-committed").shows("snapshot-isolation"),
                LevelExpectation.of("hsqldb-mvcc-serializable-register", JdbcIsolation.SERIALIZABLE, 37)
                        .registers(3_000, 1_000).validUnder("read-committed"));
    }

    /** LOCKS mode (table-level two-phase locking): SERIALIZABLE is strict serializable. */
    static List<LevelExpectation> locks() {
        return List.of(
                LevelExpectation.of("hsqldb-locks-serializable", JdbcIsolation.SERIALIZABLE, 35)
                        .validUnder("strict-serializable").failsWith("fail 40001"),
                LevelExpectation.of("hsqldb-locks-read-committed", JdbcIsolation.READ_COMMITTED, 36)
                        .validUnder("read-committed").shows("snapshot-isolation"),
                LevelExpectation.of("hsqldb-locks-serializable-register", JdbcIsolation.SERIALIZABLE, 38)
                        .registers(3_000, 1_000).validUnder("strict-serializable"));
    }

    /**
     * MVLOCKS mode (two-phase locking for writers, snapshots for READ COMMITTED readers):
     * SERIALIZABLE is strict serializable, READ COMMITTED read committed.
     */
    static List<LevelExpectation> mvlocks() {
        return List.of(
                LevelExpectation.of("hsqldb-mvlocks-serializable", JdbcIsolation.SERIALIZABLE, 39)
                        .validUnder("strict-serializable").failsWith("fail 40001"),
                LevelExpectation.of("hsqldb-mvlocks-read-committed", JdbcIsolation.READ_COMMITTED, 40)
                        .validUnder("read-committed").shows("snapshot-isolation"),
                LevelExpectation.of("hsqldb-mvlocks-serializable-register", JdbcIsolation.SERIALIZABLE, 46)
                        .registers(3_000, 1_000).validUnder("strict-serializable"));
    }

    /**
     * Runs the two locking modes (MVLOCKS, LOCKS) only with {@code -Disowatch.it.hsqldb-locking=true}.
     * HSQLDB 2.7.3's deadlock detection in them sometimes recurses without end ({@code
     * StackOverflowError} in {@code TransactionManagerCommon.checkDeadlock}) and then stops the
     * run or leaves the other clients waiting for a lock forever (docs/findings.md); a build that
     * hangs in about one run of three cannot gate a merge. Every locking-mode run that finished was
     * strict serializable, which is what these expectations assert.
     */
    static final boolean LOCKING_MODES = Boolean.getBoolean("isowatch.it.hsqldb-locking");

    @TestFactory
    Stream<DynamicTest> contendedRuns_matchTheManualsPromises() {
        Stream<DynamicTest> mvcc = JdbcHistories.tests(MVCC, mvcc());
        return LOCKING_MODES
                ? Stream.of(mvcc, JdbcHistories.tests(MVLOCKS, mvlocks()), JdbcHistories.tests(LOCKS, locks())).flatMap(t -> t)
                : mvcc;
    }
}
