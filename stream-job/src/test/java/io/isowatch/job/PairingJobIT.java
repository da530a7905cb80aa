package io.isowatch.job;

import io.isowatch.history.codec.HistoryEventJson;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.job.serde.HistoryRecordDeserializer;
import io.isowatch.job.serde.JobTypes;

import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Either;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.isowatch.job.Events.invoke;
import static io.isowatch.job.Events.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the job on Flink's MiniCluster with RocksDB state and Kryo disabled, over a bounded list of
 * Kafka-shaped records that includes re-sent duplicates, a malformed record and a completion
 * whose process never invoked (let through alone), and reads the events fed to the checker.
 */
class PairingJobIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SharedMiniCluster.EXTENSION;

    private static final String TOPIC = "isowatch.history";
    private static final String MALFORMED =
            "{\"index\":7,\"time\":5000000,\"type\":\"okay\",\"process\":1,\"f\":\"txn\",\"value\":[],\"agent\":\"a1\",\"seq\":999}";

    /** One Kafka record's worth of input; serializable so the generator can ship it. */
    record Raw(int partition, long offset, byte[] value) implements Serializable {
    }

    /** Decodes the i-th raw record with the production deserializer, inside the job. */
    static final class Replay implements GeneratorFunction<Long, Either<DeadLetter, HistoryEvent>> {
        private static final long serialVersionUID = 1L;
        private final ArrayList<Raw> records;
        private final HistoryRecordDeserializer deserializer = new HistoryRecordDeserializer();

        Replay(List<Raw> records) {
            this.records = new ArrayList<>(records);
        }

        @Override
        public Either<DeadLetter, HistoryEvent> map(Long i) {
            Raw r = records.get(i.intValue());
            return deserializer.decode(new ConsumerRecord<>(TOPIC, r.partition(), r.offset(), null, r.value()));
        }
    }

    @Test
    void pairsDedupesAndDeadLetters_onRocksDb_withoutKryo() throws Exception {
        HistoryEventJson json = new HistoryEventJson();
        AtomTable atoms = new AtomTable();
        List<Raw> raw = new ArrayList<>();
        Set<String> expected = new HashSet<>();
        long seq = 0;
        List<HistoryEvent> events = new ArrayList<>();
        for (int round = 0; round < 5; round++) {
            for (long process = 0; process < 4; process++) {
                long t = round * 10 + process;
                HistoryEvent inv = invoke("a1", seq++, process, t);
                HistoryEvent done = ok("a1", seq++, process, t + 1);
                events.add(inv);
                events.add(done);
                expected.add("a1/" + process + "/" + inv.sequence() + "/" + done.sequence());
            }
        }
        List<HistoryEvent> sent = new ArrayList<>(events);
        sent.add(events.get(3));   // re-sent copies, as a shipper does after a failed round
        sent.add(events.get(0));
        sent.add(events.get(17));
        HistoryEvent alone = ok("a1", seq++, 9, 20); // a completion whose process never invoked
        sent.add(alone);
        expected.add("a1/9/none/" + alone.sequence());
        for (HistoryEvent e : sent) {
            raw.add(new Raw(0, raw.size(), json.render(e, atoms)));
        }
        raw.add(12, new Raw(0, 12, MALFORMED.getBytes(StandardCharsets.UTF_8)));

        JobOptions options = JobOptions.parse(Map.of(
                "parallelism", "2",
                "max-parallelism", "16",
                "checkpoint-interval", "500ms",
                "state-backend", "rocksdb",
                "max-out-of-orderness", "5s"));
        CollectingSink<HistoryEvent> paired = new CollectingSink<>();
        CollectingSink<DeadLetter> deadLetters = new CollectingSink<>();
        DataGeneratorSource<Either<DeadLetter, HistoryEvent>> source =
                new DataGeneratorSource<>(new Replay(raw), raw.size(), JobTypes.DECODED);

        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(CheckerJob.flinkConfiguration(options));
        CheckerJob job = new CheckerJob(options, source,
                JobSinks.of(List.of(), deadLetters).withCheckedEvents(paired));
        job.build(env);
        assertTrue(env.getConfig().getSerializerConfig().hasGenericTypesDisabled(), "Kryo fallback must be off");
        env.execute("pairing-it");
        List<CompletedTxn> completed = CompletedTxn.pairs(paired.values());

        Set<String> got = completed.stream()
                .map(t -> t.source() + "/" + t.process() + "/" + (t.invocation() == null ? "none" : t.invocation().sequence())
                        + "/" + t.completion().sequence())
                .collect(Collectors.toSet());
        assertEquals(expected, got);
        assertEquals(expected.size(), completed.size(), "each transaction exactly once");

        List<DeadLetter> dead = deadLetters.values();
        assertEquals(1, dead.size(), () -> dead.toString());
        DeadLetter malformed = dead.stream().filter(d -> d.kind() == DeadLetter.Kind.MALFORMED_RECORD).findFirst().orElseThrow();
        assertEquals(TOPIC, malformed.topic());
        assertEquals(12, malformed.offset());
        assertEquals(MALFORMED, malformed.raw());
        assertTrue(malformed.error().contains("\"type\"") && malformed.error().contains("okay"), malformed.error());
        assertTrue(dead.stream().noneMatch(d -> d.kind() == DeadLetter.Kind.LATE_EVENT), dead::toString);
    }
}
