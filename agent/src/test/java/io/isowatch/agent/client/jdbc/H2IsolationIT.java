package io.isowatch.agent.client.jdbc;

import io.isowatch.anomaly.AnomalyType;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.stream.Stream;

/**
 * H2's isolation levels (H2 2.5, MVStore, embedded in this JVM as an in-memory database shared by
 * all clients): 16 clients on 4 hot keys per level, judged against what H2 documents for each
 * level ({@code org.h2.engine.IsolationLevel}): SERIALIZABLE, "concurrent and serial execution
 * of transactions with this isolation level should have the same effect"; REPEATABLE READ, no
 * dirty and no non-repeatable reads; READ COMMITTED, no dirty reads; READ UNCOMMITTED, anything;
 * SNAPSHOT (H2's own level, JDBC constant 6), no dirty, non-repeatable or phantom reads, without
 * SERIALIZABLE's promise of a serial effect.
 * What the runs show beyond that is in docs/findings.md.
 */
class H2IsolationIT {

    /** One in-memory database for the whole class; DB_CLOSE_DELAY keeps it while no client is connected. */
    private static final String URL = "jdbc:h2:mem:isowatch-h2-it;DB_CLOSE_DELAY=-1";

    /**
     * What every run showed (docs/findings.md has the explanations). SERIALIZABLE shows write skew
     * (G2-item) in list-append histories: the documented promise is broken. REPEATABLE READ shows
     * it too, and in some runs a single-key G-single-item (an append that read a stale list but
     * landed after newer appends). READ UNCOMMITTED shows dirty reads, as documented, and in some
     * runs a list holding an element twice (duplicate-elements), which no level allows: too rare to
     * assert. SNAPSHOT is snapshot isolation, write skew included, which its promise allows, but in
     * one CI run it showed REPEATABLE READ's single-key G-single-item too, so only read committed
     * is asserted for it. Only what every run showed is asserted; the ladder of each run is in its
     * report.
     */
    static List<LevelExpectation> levels() {
        return List.of(
                LevelExpectation.of("h2-serializable", JdbcIsolation.SERIALIZABLE, 21)
                        .validUnder("read-committed").shows("serializable", AnomalyType.G2_ITEM),
                LevelExpectation.of("h2-repeatable-read", JdbcIsolation.REPEATABLE_READ, 22)
                        .validUnder("read-committed")
                        .shows("serializable", AnomalyType.G2_ITEM, AnomalyType.G_SINGLE_ITEM),
                LevelExpectation.of("h2-read-committed", JdbcIsolation.READ_COMMITTED, 23)
                        .validUnder("read-committed").shows("snapshot-isolation"),
                LevelExpectation.of("h2-read-uncommitted", JdbcIsolation.READ_UNCOMMITTED, 24)
                        .shows("read-committed", AnomalyType.G1A, AnomalyType.G1B, AnomalyType.G1C),
                LevelExpectation.of("h2-snapshot", JdbcIsolation.SNAPSHOT, 26)
                        .validUnder("read-committed").shows("serializable", AnomalyType.G2_ITEM),
                LevelExpectation.of("h2-snapshot-register", JdbcIsolation.SNAPSHOT, 27)
                        .registers(3_000, 1_000).validUnder("snapshot-isolation"),
                LevelExpectation.of("h2-serializable-register", JdbcIsolation.SERIALIZABLE, 25)
                        .registers(3_000, 1_000).validUnder("read-committed"));
    }

    @TestFactory
    Stream<DynamicTest> contendedRuns_matchTheManualsPromises() {
        return JdbcHistories.tests(new JdbcHistories.Server(URL, "sa", ""), levels());
    }
}
