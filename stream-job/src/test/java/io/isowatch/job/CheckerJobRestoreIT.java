package io.isowatch.job;

import io.isowatch.agent.transport.ShippedRecords;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.FindingId;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.sinks.Alert;
import io.isowatch.localkafka.InJvmKafka;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job stopped with a savepoint mid-history and restored from it reports every finding of the
 * history exactly once: the first run's alerts and the restored run's together are exactly the
 * findings the offline engine streams, none twice. Real KRaft broker, MiniCluster, RocksDB.
 */
class CheckerJobRestoreIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SharedMiniCluster.EXTENSION;

    private static final String AGENT = "agent-restore";

    @Test
    void stopWithSavepoint_thenRestore_reportsEachFindingExactlyOnce(@TempDir Path savepoints) throws Exception {
        // A correct store with stale reads: real anomalies throughout the history.
        AtomTable atoms = new AtomTable();
        List<Op> ops = new ArrayList<>();
        for (Op op : ListAppendGenerator.generate(GeneratorOptions.defaults().toBuilder().txnCount(1_200).seed(11)
                .staleReadRate(0.03).build())) {
            ops.add(new Op(op.index(), (op.index() + 1) * 1_000_000L, op.type(), op.process(), op.value()));
        }
        Set<String> expected = offlineFindings(ops, atoms);
        assertTrue(expected.size() >= 4, () -> "the history should hold several findings, got " + expected.size());

        InJvmKafka kafka = InJvmKafka.shared();
        String topic = "restore-it-" + System.nanoTime();
        kafka.createTopic(topic, 2);
        JobOptions options = JobOptions.parse(Map.of(
                "bootstrap-servers", kafka.bootstrapServers(),
                "history-topic", topic,
                "group-id", "restore-it",
                "parallelism", "2",
                "max-parallelism", "16",
                "max-out-of-orderness", "50ms",
                "idle-timeout", "0",
                "checkpoint-interval", "1s",
                "consistency-models", "serializable"));
        CheckerOptions checks = options.checkerOptions();
        int half = ops.size() / 2;
        kafka.send(records(topic, AGENT, ops.subList(0, half), atoms));

        // First run: the first half of the history, stopped with a savepoint.
        CollectingSink<Alert> firstAlerts = new CollectingSink<>();
        JobClient first = start(options, checks, firstAlerts, new Configuration());
        awaitStable(() -> !firstAlerts.values().isEmpty(), firstAlerts);
        String savepoint = first.stopWithSavepoint(false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                .get(60, TimeUnit.SECONDS);

        // The rest, then on each partition one transaction of another agent far later, which
        // moves the watermark past the history's last events.
        kafka.send(records(topic, AGENT, ops.subList(half, ops.size()), atoms));
        long late = ops.get(ops.size() - 1).time() + 10_000_000_000L;
        for (int partition = 0; partition < 2; partition++) {
            List<ProducerRecord<byte[], byte[]>> filler = new ArrayList<>();
            for (ProducerRecord<byte[], byte[]> r : records(topic, "agent-filler-" + partition, List.of(
                    new Op(0, late, OpType.INVOKE, 0, List.of()), new Op(1, late + 1, OpType.OK, 0, List.of())), atoms)) {
                filler.add(new ProducerRecord<>(topic, partition, r.key(), r.value(), r.headers()));
            }
            kafka.send(filler);
        }

        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        CollectingSink<Alert> secondAlerts = new CollectingSink<>();
        JobClient second = start(options, checks, secondAlerts, restore);
        try {
            await(() -> firstAlerts.values().size() + secondAlerts.values().size() >= expected.size(),
                    Duration.ofSeconds(90), () -> "expected " + expected.size() + " findings, got "
                            + firstAlerts.values().size() + " before the savepoint and " + secondAlerts.values().size()
                            + " after");
            Thread.sleep(1_000); // a repeat would arrive now
        } finally {
            second.cancel().get(30, TimeUnit.SECONDS);
        }

        List<String> ids = new ArrayList<>();
        firstAlerts.values().forEach(a -> ids.add(a.id()));
        secondAlerts.values().forEach(a -> ids.add(a.id()));
        assertFalse(firstAlerts.values().isEmpty(), "the first run alerted before the savepoint");
        assertFalse(secondAlerts.values().isEmpty(), "the restored run alerted on the rest");
        assertEquals(ids.size(), new HashSet<>(ids).size(), () -> "a finding was reported twice: " + ids);
        assertEquals(expected, new HashSet<>(ids));
    }

    private static JobClient start(JobOptions options, CheckerOptions checks, CollectingSink<Alert> alerts,
                                   Configuration extra) throws Exception {
        Configuration conf = CheckerJob.flinkConfiguration(options);
        conf.addAll(extra);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        new CheckerJob(options, CheckerJob.kafkaSource(options),
                JobSinks.of(List.of(alerts), new CollectingSink<>())).build(env);
        return env.executeAsync("checker-restore-it");
    }

    /** The findings the offline engine streams for the history, as the job identifies them. */
    private static Set<String> offlineFindings(List<Op> ops, AtomTable atoms) {
        Set<String> ids = new HashSet<>();
        List<Finding> found = new ArrayList<>();
        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().toBuilder().consistencyModels(Set.of(ConsistencyModel.of("serializable")))
                        .build(), atoms, found::add);
        for (Op op : ops) {
            checker.accept(op);
        }
        found.forEach(f -> ids.add(FindingId.of(f, atoms, AGENT)));
        return ids;
    }

    private static List<ProducerRecord<byte[], byte[]>> records(String topic, String agent, List<Op> ops,
                                                                AtomTable atoms) {
        ShippedRecords shipped = new ShippedRecords(topic);
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (Op op : ops) {
            out.add(shipped.record(new HistoryEvent(agent, op.index(), op), atoms));
        }
        return out;
    }

    /** Waits until {@code ready}, then until the alerts stop changing for two seconds. */
    private static void awaitStable(BooleanSupplier ready, CollectingSink<Alert> alerts) throws InterruptedException {
        await(ready, Duration.ofSeconds(60), () -> "no alert before the savepoint");
        int seen = -1;
        while (seen != alerts.values().size()) {
            seen = alerts.values().size();
            Thread.sleep(2_000);
        }
    }

    private static void await(BooleanSupplier condition, Duration timeout, java.util.function.Supplier<String> what)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + ": " + what.get());
            }
            Thread.sleep(100);
        }
    }
}
