package io.isowatch.cli;

import io.isowatch.agent.transport.ShippedRecords;
import io.isowatch.agentcli.ExitCodes;
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
import io.isowatch.job.RetainedCheckpoints;
import io.isowatch.localkafka.InJvmKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code isowatch job} as a real process, killed with SIGKILL and started again: each start
 * resumes from the latest completed checkpoint of its directory on its own, and the alerts topic
 * ends up holding every finding of the history the offline engine reports, none missing and none
 * that is not one of them. The topic is written at least once (a restored job delivers again
 * what it found after its checkpoint, under the same id), so readers count findings by id.
 * Real KRaft broker, the launcher's own jar, a local Flink cluster with RocksDB.
 */
class JobKillIT {

    private static final String AGENT = "agent-kill";
    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void jobKilledTwice_resumesFromItsLatestCheckpoint_andEveryFindingArrives(@TempDir Path dir) throws Exception {
        AtomTable atoms = new AtomTable();
        List<Op> ops = new ArrayList<>();
        for (Op op : ListAppendGenerator.generate(GeneratorOptions.defaults().toBuilder().txnCount(1_500).seed(5)
                .staleReadRate(0.03).build())) {
            ops.add(new Op(op.index(), (op.index() + 1) * 1_000_000L, op.type(), op.process(), op.value()));
        }
        Set<String> expected = offlineFindings(ops, atoms);
        assertTrue(expected.size() >= 6, () -> "the history should hold several findings, got " + expected.size());

        InJvmKafka kafka = InJvmKafka.shared();
        String suffix = Long.toString(System.nanoTime());
        String history = "kill-it-history-" + suffix;
        String alerts = "kill-it-alerts-" + suffix;
        String deadLetters = "kill-it-dead-" + suffix;
        kafka.createTopic(history, 2);
        kafka.createTopic(alerts, 1);
        kafka.createTopic(deadLetters, 1);
        Path checkpoints = dir.resolve("checkpoints");
        List<String> args = List.of("job", "--bootstrap-servers", kafka.bootstrapServers(), "--history-topic", history,
                "--alerts-topic", alerts, "--dead-letter-topic", deadLetters, "--checkpoint-dir", checkpoints.toString(),
                "--checkpoint-interval", "1s", "--max-out-of-orderness", "50ms", "--idle-timeout", "0",
                "--parallelism", "2", "--max-parallelism", "16", "--consistency-models", "serializable");
        int third = ops.size() / 3;

        // Two runs, each killed once it has alerted on its part and a checkpoint has completed since.
        Optional<Path> latest = Optional.empty();
        int alertsBefore = 0;
        for (int run = 0; run < 2; run++) {
            sendPart(kafka, history, ops.subList(run * third, (run + 1) * third), atoms, run);
            LauncherProcess job = LauncherProcess.start("1g", dir.resolve("run-" + run + ".err"), args);
            if (run > 0) {
                Path resumed = latest.orElseThrow();
                await(() -> job.err().contains("resuming from " + resumed), () -> "not resumed from " + resumed + ": "
                        + job.err());
            }
            int seen = alertsBefore;
            await(() -> alertRecords(kafka, alerts).size() > seen, () -> "no alert in run " + job.err());
            FileTime alerted = FileTime.from(Instant.now());
            await(() -> RetainedCheckpoints.latest(checkpoints).filter(c -> written(c).compareTo(alerted) > 0).isPresent(),
                    () -> "no checkpoint after the alerts: " + job.err());
            latest = RetainedCheckpoints.latest(checkpoints);
            assertEquals(137, job.kill(), "killed by SIGKILL");
            alertsBefore = alertRecords(kafka, alerts).size();
        }

        sendPart(kafka, history, ops.subList(2 * third, ops.size()), atoms, 2);
        LauncherProcess last = LauncherProcess.start("1g", dir.resolve("run-2.err"), args);
        Path resumed = latest.orElseThrow();
        Set<String> ids = new HashSet<>();
        List<String> records = new ArrayList<>();
        try {
            await(() -> last.err().contains("resuming from " + resumed), () -> "not resumed: " + last.err());
            await(() -> {
                records.clear();
                records.addAll(alertRecords(kafka, alerts));
                ids.clear();
                ids.addAll(records);
                return ids.containsAll(expected);
            }, () -> "missing findings: " + missing(expected, ids) + "\n" + last.err());
        } finally {
            assertEquals(137, last.kill(), "killed by SIGKILL");
        }
        // A run that started afresh would deliver every earlier finding again; one resumed from a
        // checkpoint repeats only what it found after that checkpoint.
        int repeats = records.size() - ids.size();
        int before = alertsBefore;
        assertTrue(repeats < before, () -> repeats + " repeats of " + before + " findings delivered before the last kill");
        assertEquals(expected, ids, "the alerts topic holds exactly the offline findings, by id");
    }

    @Test
    void missingTopic_isOneLineNamingItAnd255() {
        InJvmKafka kafka = InJvmKafka.shared();
        String history = "kill-it-present-" + System.nanoTime();
        kafka.createTopic(history, 1);
        CheckCommandTest.Run r = CheckCommandTest.run("job", "--bootstrap-servers", kafka.bootstrapServers(),
                "--history-topic", history, "--alerts-topic", "no-such-alerts", "--dead-letter-topic", history);
        assertEquals(ExitCodes.ERROR, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("isowatch job: topic(s) no-such-alerts do not exist on " + kafka.bootstrapServers()),
                r.err());
    }

    /** Part {@code run} of the history, then on each partition one event of another agent just after it. */
    private static void sendPart(InJvmKafka kafka, String topic, List<Op> part, AtomTable atoms, int run) {
        kafka.send(records(topic, AGENT, part, atoms));
        // Moves the watermark past the part: a partition without events would hold it back.
        long after = part.get(part.size() - 1).time() + 1_000_000_000L;
        for (int partition = 0; partition < 2; partition++) {
            List<ProducerRecord<byte[], byte[]>> filler = new ArrayList<>();
            for (ProducerRecord<byte[], byte[]> r : records(topic, "agent-filler-" + run + "-" + partition, List.of(
                    new Op(0, after, OpType.INVOKE, 0, List.of()), new Op(1, after + 1, OpType.OK, 0, List.of())), atoms)) {
                filler.add(new ProducerRecord<>(topic, partition, r.key(), r.value(), r.headers()));
            }
            kafka.send(filler);
        }
    }

    /** The alert ids in the topic, one per record, repeats included. */
    private static List<String> alertRecords(InJvmKafka kafka, String topic) {
        List<String> ids = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readTopic(topic, read -> false, Duration.ofSeconds(2))) {
            ids.add(new String(r.key(), StandardCharsets.UTF_8));
        }
        return ids;
    }

    private static FileTime written(Path checkpoint) {
        try {
            return Files.getLastModifiedTime(checkpoint.resolve("_metadata"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Set<String> missing(Set<String> expected, Set<String> ids) {
        Set<String> m = new HashSet<>(expected);
        m.removeAll(ids);
        return m;
    }

    private static Set<String> offlineFindings(List<Op> ops, AtomTable atoms) {
        List<Finding> found = new ArrayList<>();
        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().toBuilder().consistencyModels(Set.of(ConsistencyModel.of("serializable")))
                        .build(), atoms, found::add);
        ops.forEach(checker::accept);
        Set<String> ids = new HashSet<>();
        found.forEach(f -> ids.add(FindingId.of(f, atoms, AGENT)));
        return ids;
    }

    private static List<ProducerRecord<byte[], byte[]>> records(String topic, String agent, List<Op> ops, AtomTable atoms) {
        ShippedRecords shipped = new ShippedRecords(topic);
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (Op op : ops) {
            out.add(shipped.record(new HistoryEvent(agent, op.index(), op), atoms));
        }
        return out;
    }

    private static void await(BooleanSupplier condition, Supplier<String> what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + WAIT + ": " + what.get());
            }
            Thread.sleep(200);
        }
    }
}
