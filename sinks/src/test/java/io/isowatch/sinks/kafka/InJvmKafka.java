package io.isowatch.sinks.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One single-node KRaft cluster (combined broker and controller) per test JVM, on Kafka's own
 * test kit, started on first use and stopped at JVM exit. The same approach as the agent's test
 * helper, which test classes of another module cannot share.
 */
final class InJvmKafka {

    private static InJvmKafka shared;

    private final KafkaClusterTestKit cluster;

    private InJvmKafka(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    static synchronized InJvmKafka shared() {
        if (shared == null) {
            try {
                TestKitNodes nodes = new TestKitNodes.Builder()
                        .setCombined(true)
                        .setNumBrokerNodes(1)
                        .setNumControllerNodes(1)
                        .build();
                KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(nodes)
                        .setConfigProp("offsets.topic.replication.factor", "1")
                        .setConfigProp("offsets.topic.num.partitions", "1")
                        .setConfigProp("transaction.state.log.replication.factor", "1")
                        .setConfigProp("transaction.state.log.min.isr", "1")
                        .setConfigProp("group.initial.rebalance.delay.ms", "0")
                        .setConfigProp("auto.create.topics.enable", "false")
                        .build();
                cluster.format();
                cluster.startup();
                cluster.waitForReadyBrokers();
                shared = new InJvmKafka(cluster);
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the in-JVM Kafka cluster: " + e, e);
            }
            InJvmKafka started = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "in-jvm-kafka-stop"));
        }
        return shared;
    }

    String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    void createTopic(String topic, int partitions) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topic " + topic + ": " + e, e);
        }
    }

    /** Reads every partition of {@code topic} from the start until {@code count} records are read or 30 s pass. */
    List<ConsumerRecord<String, byte[]>> read(String topic, int count) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                     new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
                partitions.add(new TopicPartition(topic, p.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (records.size() < count && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
            }
        }
        return records;
    }

    private void close() {
        try {
            cluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the in-JVM Kafka cluster: " + e, e);
        }
    }
}
