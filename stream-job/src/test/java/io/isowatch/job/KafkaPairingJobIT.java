package io.isowatch.job;

import io.isowatch.localkafka.InJvmKafka;

import io.isowatch.agent.transport.ShippedRecords;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;

import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Either;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.isowatch.job.Events.invoke;
import static io.isowatch.job.Events.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The production Kafka source against an in-JVM KRaft broker: records shaped exactly as the
 * agent's shipper writes them (key = process, JSON value, agent/seq headers), over three
 * partitions, with a re-sent duplicate and a malformed record. The source is bounded at the
 * offsets present at start so the job ends.
 */
class KafkaPairingJobIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SharedMiniCluster.EXTENSION;

    @Test
    void kafkaSource_readsShipperRecords_pairsThem_andDeadLettersTheMalformed() throws Exception {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = "history-it-" + System.nanoTime();
        kafka.createTopic(topic, 3);

        ShippedRecords shipped = new ShippedRecords(topic);
        AtomTable atoms = new AtomTable();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        long seq = 0;
        int txns = 0;
        for (int round = 0; round < 10; round++) {
            for (long process = 0; process < 6; process++) {
                // Times follow sequence numbers, as the recorder stamps them.
                long t = seq;
                for (HistoryEvent e : List.of(invoke("agent-k", seq++, process, t), ok("agent-k", seq++, process, t + 1))) {
                    records.add(shipped.record(e, atoms));
                }
                txns++;
            }
        }
        records.add(records.get(5));   // a re-sent record
        records.add(new ProducerRecord<>(topic, "1".getBytes(StandardCharsets.US_ASCII),
                "{\"type\":\"ok\",\"process\":1".getBytes(StandardCharsets.UTF_8)));
        kafka.send(records);

        JobOptions options = JobOptions.parse(Map.of(
                "bootstrap-servers", kafka.bootstrapServers(),
                "history-topic", topic,
                "parallelism", "2",
                "checkpoint-interval", "500ms",
                "idle-timeout", "0"));
        KafkaSource<Either<DeadLetter, HistoryEvent>> source = CheckerJob.kafkaSourceBuilder(options)
                .setBounded(OffsetsInitializer.latest())
                .build();
        CollectingSink<HistoryEvent> paired = new CollectingSink<>();
        CollectingSink<DeadLetter> deadLetters = new CollectingSink<>();
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(CheckerJob.flinkConfiguration(options));
        new CheckerJob(options, source,
                JobSinks.of(List.of(), deadLetters).withCheckedEvents(paired)).execute(env, "kafka-pairing-it");
        List<CompletedTxn> completed = CompletedTxn.pairs(paired.values());

        assertEquals(txns, completed.size());
        assertEquals(txns, completed.stream().map(t -> t.invocation().sequence()).distinct().count());
        List<DeadLetter> dead = deadLetters.values();
        assertEquals(1, dead.size(), dead::toString);
        assertEquals(DeadLetter.Kind.MALFORMED_RECORD, dead.get(0).kind());
        assertEquals(topic, dead.get(0).topic());
        assertTrue(dead.get(0).partition() >= 0 && dead.get(0).offset() >= 0);
        assertTrue(dead.stream().noneMatch(d -> d.kind() == DeadLetter.Kind.LATE_EVENT), dead::toString);
    }
}
