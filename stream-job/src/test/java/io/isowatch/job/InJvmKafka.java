package io.isowatch.job;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One combined KRaft broker+controller inside the test JVM (Kafka's own test kit, wrapped here so
 * its internal API is used in one place). {@link #shared()} starts it once per JVM.
 */
public final class InJvmKafka {

    private static InJvmKafka shared;

    private final KafkaClusterTestKit cluster;

    private InJvmKafka(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    /** The JVM-wide broker, started on first use and stopped at JVM exit. */
    public static synchronized InJvmKafka shared() {
        if (shared == null) {
            try {
                TestKitNodes nodes = new TestKitNodes.Builder()
                        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build();
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
                throw new IllegalStateException("cannot start the in-JVM Kafka broker: " + e, e);
            }
            InJvmKafka started = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.cluster.close();
                } catch (Exception ignored) {
                    // the JVM is exiting
                }
            }, "in-jvm-kafka-stop"));
        }
        return shared;
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    public void createTopic(String topic, int partitions) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topic " + topic + ": " + e, e);
        }
    }

    /** Sends the records and waits until all are acknowledged. */
    public void send(List<ProducerRecord<byte[], byte[]>> records) {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            for (ProducerRecord<byte[], byte[]> r : records) {
                producer.send(r);
            }
            producer.flush();
        }
    }
}
