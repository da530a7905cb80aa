package io.isowatch.job;

import io.isowatch.history.codec.HistoryEventJson;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;
import io.isowatch.explain.VerdictJson;
import io.isowatch.job.PairingJobIT.Raw;
import io.isowatch.job.PairingJobIT.Replay;
import io.isowatch.job.serde.JobTypes;
import io.isowatch.sinks.Alert;
import io.isowatch.testing.Json;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Either;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With a short {@code history-retention} the job's checker forgets its oldest transactions again
 * and again (decision 0013; how much it then holds is {@code CheckTransactionsFunctionTest}'s;
 * that it forgot is the job's own {@code evicted_transactions} counter), and stays sound: silent
 * on a correct history, and on a faulty one it rules out no model the whole history does not.
 */
class CheckerJobRetentionIT {

    /** Keeps the job's metrics after it finishes, so a test can read its counters. */
    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    /** {@link SharedMiniCluster}'s shape, with the reporter. */
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setConfiguration(METRICS.addToConfiguration(new Configuration()))
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    private static final int TXNS = 12_000;

    @Test
    void correctHistory_forgottenManyTimes_staysSilent_andOneCheckerSeesEveryEvent() throws Exception {
        List<Op> ops = history(0);
        Result r = run(ops, "strict-serializable");
        assertTrue(r.alerts().isEmpty(), () -> r.alerts().stream().map(Alert::title).toList().toString());
        assertEquals(true, r.verdict().get("valid"));
        long checkedEvents = ((Number) stats(r.verdict()).get("ops")).longValue();
        // 24 s of events, a retention of 1 s: one checker took all 24,000 events, forgetting as
        // it went (a generation started late would have seen only its last two seconds).
        assertEquals(ops.size(), checkedEvents);
        // And it did forget: with 24 s of events and 1 s kept, most transactions go before the end.
        assertTrue(r.evicted() >= TXNS / 2, () -> "forgot only " + r.evicted() + " of " + TXNS + " transactions");
    }

    @Test
    void faultyHistory_forgottenManyTimes_rulesOutNoMoreThanTheWholeHistory() throws Exception {
        List<Op> ops = history(0.02);
        Result r = run(ops, "serializable");
        IncrementalChecker whole = new IncrementalChecker(CheckerOptions.defaults().toBuilder()
                .consistencyModels(Set.of(ConsistencyModel.of("serializable"))).build(),
                new AtomTable());
        ops.forEach(whole::accept);
        Verdict offline = whole.finish();
        Set<String> ruledOutWhole = ConsistencyModels.impossibleModels(
                offline.anomalyTypes().stream().map(t -> t.elleName()).toList());
        Set<String> alertTypes = new TreeSet<>();
        r.alerts().forEach(a -> alertTypes.add(a.type()));
        assertFalse(alertTypes.isEmpty(), "stale reads make anomalies the job must still see");
        assertTrue(ruledOutWhole.containsAll(ConsistencyModels.impossibleModels(alertTypes)),
                () -> "alerts " + alertTypes + " rule out more than the whole history's " + offline.anomalyTypes());
    }

    /** {@code evicted}: the job's {@code evicted_transactions} counter, summed over its subtasks. */
    record Result(List<Alert> alerts, Map<String, Object> verdict, long evicted) {
    }

    private static List<Op> history(double staleReadRate) {
        List<Op> ops = new ArrayList<>();
        for (Op op : ListAppendGenerator.generate(GeneratorOptions.defaults().toBuilder().txnCount(TXNS).seed(5)
                .staleReadRate(staleReadRate).build())) {
            ops.add(new Op(op.index(), (op.index() + 1) * 1_000_000L, op.type(), op.process(), op.value()));
        }
        return ops;
    }

    private static Result run(List<Op> ops, String model) throws Exception {
        AtomTable atoms = new AtomTable();
        HistoryEventJson json = new HistoryEventJson();
        // The generator source splits its records into halves, one per subtask: even events in the
        // first half, odd in the second, so both subtasks move through event time together and
        // the watermark advances steadily (as with Kafka partitions) instead of jumping at the end.
        List<Raw> raw = new ArrayList<>();
        for (int parity = 0; parity < 2; parity++) {
            for (int i = parity; i < ops.size(); i += 2) {
                Op op = ops.get(i);
                raw.add(new Raw(0, raw.size(), json.render(new HistoryEvent("long-run", op.index(), op), atoms)));
            }
        }
        JobOptions options = JobOptions.parse(Map.of(
                "parallelism", "2",
                "max-parallelism", "16",
                "checkpoint-interval", "0",
                "max-out-of-orderness", "20ms",
                "history-retention", "1s",
                "consistency-models", model));
        CollectingSink<Alert> alerts = new CollectingSink<>();
        CollectingSink<DeadLetter> deadLetters = new CollectingSink<>();
        CollectingSink<HistoryVerdict> verdicts = new CollectingSink<>();
        DataGeneratorSource<Either<DeadLetter, HistoryEvent>> source =
                // Paced at 4,000 events/s (24 s of event time in about 6 s), so the watermark
                // advances in steps of under a second however fast the machine is.
                new DataGeneratorSource<>(new Replay(raw), raw.size(), RateLimiterStrategy.perSecond(4_000),
                        JobTypes.DECODED);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(CheckerJob.flinkConfiguration(options));
        JobID job = new CheckerJob(options, source,
                JobSinks.of(List.of(alerts), deadLetters).withVerdicts(verdicts)).execute(env, "retention-it").getJobID();
        assertTrue(deadLetters.values().isEmpty(), () -> deadLetters.values().toString());
        assertEquals(1, verdicts.values().size());
        long evicted = METRICS.findMetrics(job, "\\.evicted_transactions$").values().stream()
                .mapToLong(m -> ((Counter) m).getCount()).sum();
        return new Result(alerts.values(), Json.object(json(verdicts.values().get(0))), evicted);
    }

    private static String json(HistoryVerdict v) {
        return VerdictJson.toJson(v.verdict(), v.atoms(), Double.NaN);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> stats(Map<String, Object> verdict) {
        return (Map<String, Object>) verdict.get("stats");
    }
}
