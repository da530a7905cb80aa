package io.isowatch.testkit;

import kafka.server.BrokerServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A single-node KRaft Kafka cluster (one combined broker+controller) inside the test JVM, built
 * on Kafka's own test kit — the one wrapper every module's tests use (STACK.md: it is Kafka's
 * internal harness).
 *
 * <p>{@link #shared()} starts one cluster per JVM on first use and leaves it running until JVM
 * exit, since a start costs several seconds. Tests that stop the broker use
 * {@link #startDedicated()} and close it themselves. Every cluster is stopped by a shutdown hook
 * if it is still running when the JVM exits (a shared cluster, a demo ended with Ctrl-C). The
 * broker's port survives {@link #stopBroker()} / {@link #startBroker()}: the test kit re-binds the
 * same port, so clients reconnect to the same bootstrap address.
 *
 * <p>The cluster's directory is made here, not by the test kit: left to itself the test kit
 * deletes its directory from a JVM shutdown hook of its own, which can run while the shared
 * cluster's stop hook is still shutting the broker down; the broker then finds its log directory
 * gone and halts the JVM with exit code 1 ({@code LogManager.handleLogDirFailure}), after every
 * test has passed (InJvmKafkaExitTest). Given a directory, the
 * test kit registers no hook and deletes it in {@link #close()}, once the broker has stopped.
 */
public final class InJvmKafka implements AutoCloseable {

    private static InJvmKafka shared;

    private final KafkaClusterTestKit cluster;
    private final Thread stopAtExit = new Thread(this::stop, "in-jvm-kafka-stop");
    private boolean stopped;

    private InJvmKafka(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
        Runtime.getRuntime().addShutdownHook(stopAtExit);
    }

    /** The JVM-wide cluster, started on first call and stopped at JVM exit. */
    public static synchronized InJvmKafka shared() {
        if (shared == null) {
            shared = startDedicated();
        }
        return shared;
    }

    /** A cluster of its own; the caller closes it. */
    public static InJvmKafka startDedicated() {
        try {
            Path directory = Files.createTempDirectory("isowatch-kafka-");
            TestKitNodes nodes = new TestKitNodes.Builder()
                    .setBaseDirectory(directory)
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .build();
            KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(nodes)
                    .setDeleteOnClose(true)
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("offsets.topic.num.partitions", "1")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("auto.create.topics.enable", "false")
                    // A restarted broker waits for its previous registration's session to lapse
                    // (9 s by default) before it serves again; keep that short.
                    .setConfigProp("broker.session.timeout.ms", "1500")
                    .setConfigProp("broker.heartbeat.interval.ms", "300")
                    .build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return new InJvmKafka(cluster);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the in-JVM Kafka cluster: " + e, e);
        }
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** Creates a topic with one replica and waits until it exists. */
    public void createTopic(String topic, int partitions) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topic " + topic + ": " + e, e);
        }
    }

    /** Shuts the broker side of the node down; the controller keeps running. */
    public void stopBroker() {
        broker().shutdown();
    }

    /** Starts the broker again on the same port and waits until it serves. */
    public void startBroker() {
        broker().startup();
        try {
            cluster.waitForReadyBrokers();
        } catch (Exception e) {
            throw new IllegalStateException("the restarted broker did not become ready: " + e, e);
        }
    }

    private BrokerServer broker() {
        return cluster.brokers().values().iterator().next();
    }

    /**
     * Reads the topic from the beginning of every partition until {@code done} accepts the
     * records read so far, or the timeout passes; returns what was read, partition by partition
     * in offset order.
     */
    public List<ConsumerRecord<byte[], byte[]>> readTopic(String topic, Predicate<List<ConsumerRecord<byte[], byte[]>>> done,
                                                          Duration timeout) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
                partitions.add(new TopicPartition(topic, p.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!done.test(records) && System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(100));
                batch.forEach(records::add);
            }
        }
        return records;
    }

    /** Sends the records with an idempotent producer and waits until all are acknowledged. */
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

    /** Stops the cluster and deletes its directory; a second call does nothing. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException shuttingDown) {
            // close() called while the JVM exits: the hook has run or is running stop() itself.
        }
    }

    private synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            cluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the in-JVM Kafka cluster: " + e, e);
        }
    }
}
