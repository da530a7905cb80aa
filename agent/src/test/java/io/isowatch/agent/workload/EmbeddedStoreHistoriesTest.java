package io.isowatch.agent.workload;

import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.anomaly.AnomalyType;
import io.isowatch.checker.Validity;
import io.isowatch.checker.Verdict;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Histories the workload runner records against the embedded store, 8 threads over a handful of
 * keys, judged by the incremental checker: each level's histories satisfy that level, and show
 * the anomalies the level allows. Lost acknowledgements and forced aborts are injected
 * throughout, since they must not break any level.
 *
 * <p>Anomalies depend on thread scheduling, so the tests that look for one run seeded workloads
 * until it appears, up to a cap; every attempt must still satisfy the level.
 */
class EmbeddedStoreHistoriesTest {

    private static final int ATTEMPTS = 20;

    private static WorkloadOptions contended(long seed) {
        return WorkloadOptions.defaults()
                .toBuilder().concurrency(8)
                .keyCount(5)
                .txnLength(1, 4)
                .maxWritesPerKey(32)
                .txnLimit(5_000)
                .duration(Duration.ofSeconds(5))
                .seed(seed).build();
    }

    private static StoreOptions faulty(IsolationLevel level) {
        return StoreOptions.of(level).toBuilder().faults(0.05, 0.01, 0).seed(7).build();
    }

    private static boolean has(Verdict v, AnomalyType type) {
        return v.anomalyTypes().contains(type);
    }

    private static void assertValid(Verdict v, String model, EmbeddedHistories.Run run) {
        assertEquals(Validity.TRUE, v.valid(), () -> run.result() + " should be valid under " + model
                + " but has " + v.anomalyTypes());
    }

    /**
     * Runs seeded attempts until a history's verdict under {@code searchUnder} is {@code wanted},
     * asserting that each one is valid under {@code validUnder}.
     *
     * @return the number of attempts it took
     */
    private static int untilFound(StoreOptions store, Function<Long, WorkloadOptions> workload,
                                  String validUnder, String searchUnder, Predicate<Verdict> wanted) {
        for (long seed = 0; seed < ATTEMPTS; seed++) {
            EmbeddedHistories.Run run = EmbeddedHistories.run(store, workload.apply(seed));
            assertTrue(run.result().ok() > 0 && run.result().fail() > 0 && run.result().info() > 0, run.result()::toString);
            assertValid(check(run, validUnder), validUnder, run);
            Verdict v = check(run, searchUnder);
            if (wanted.test(v)) {
                return (int) seed + 1;
            }
        }
        fail("no attempt of " + ATTEMPTS + " showed the anomaly under " + searchUnder);
        return -1;
    }

    private static Verdict check(EmbeddedHistories.Run run, String model) {
        return EmbeddedHistories.check(run.ops(), model);
    }

    @Test
    void strictSerializable_historyIsValidUnderStrictSerializable() {
        for (long seed = 0; seed < 2; seed++) {
            EmbeddedHistories.Run run = EmbeddedHistories.run(faulty(IsolationLevel.STRICT_SERIALIZABLE),
                    contended(seed).toBuilder().txnLimit(10_000).build());
            assertValid(check(run, "strict-serializable"), "strict-serializable", run);
            assertTrue(run.result().fail() > 0 && run.result().info() > 0, run.result()::toString);
        }
    }

    @Test
    void serializable_historyIsValidUnderSerializable_butStaleReadOnlySnapshotsBreakRealtime() {
        untilFound(faulty(IsolationLevel.SERIALIZABLE).toBuilder().readOnlyLag(8).build(),
                EmbeddedStoreHistoriesTest::contended, "serializable", "strict-serializable",
                v -> v.valid() == Validity.FALSE
                        && v.anomalyTypes().stream().allMatch(t -> t.elleName().endsWith("-realtime")));
    }

    @Test
    void snapshotIsolation_historyIsValidUnderSnapshotIsolation_andShowsWriteSkewUnderSerializable() {
        // A read-heavy mix over a few more keys: transactions that read two keys and write one
        // of them overlap often, and the components of the graph stay small.
        untilFound(faulty(IsolationLevel.SNAPSHOT_ISOLATION),
                seed -> contended(seed).toBuilder().keyCount(8).txnLength(2, 4).readProbability(0.75).build(),
                "snapshot-isolation", "serializable", v -> has(v, AnomalyType.G2_ITEM));
    }

    @Test
    void readCommitted_historyIsValidUnderReadCommitted_andShowsAnAnomalySnapshotIsolationForbids() {
        untilFound(faulty(IsolationLevel.READ_COMMITTED), EmbeddedStoreHistoriesTest::contended,
                "read-committed", "snapshot-isolation",
                v -> v.valid() == Validity.FALSE && v.anomalyTypes().stream().anyMatch(t -> List.of(
                        AnomalyType.G_SINGLE_ITEM, AnomalyType.G_NONADJACENT_ITEM, AnomalyType.LOST_UPDATE,
                        AnomalyType.INTERNAL).contains(t)));
    }

    @Test
    void readUncommitted_historyIsValidUnderReadUncommitted_andShowsDirtyReads() {
        untilFound(StoreOptions.of(IsolationLevel.READ_UNCOMMITTED).toBuilder().faults(0.2, 0.01, 0).build(),
                EmbeddedStoreHistoriesTest::contended, "read-uncommitted", "read-committed",
                v -> has(v, AnomalyType.G1A) || has(v, AnomalyType.G1B));
    }

    @Test
    void staleReads_breakStrictSerializability() {
        untilFound(faulty(IsolationLevel.STRICT_SERIALIZABLE).toBuilder().faults(0.05, 0.01, 0.05).build(),
                EmbeddedStoreHistoriesTest::contended, "read-committed", "strict-serializable",
                v -> v.valid() == Validity.FALSE);
    }
}
