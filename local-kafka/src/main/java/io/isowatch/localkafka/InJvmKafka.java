package io.isowatch.localkafka;

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
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.PreboundSocketFactoryManager;
import org.apache.kafka.common.test.TestKitNodes;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A single-node KRaft Kafka cluster (one combined broker+controller) inside this JVM, built on
 * Kafka's own test kit, which is Kafka's internal harness and so is wrapped once, here: the
 * broker of the local pipeline and of every module's tests.
 *
 * <p>{@link #shared()} starts one cluster per JVM on first use and leaves it running until JVM
 * exit, since a start costs several seconds. Tests that stop the broker use
 * {@link #startDedicated()} and close it themselves. Every cluster is stopped by a shutdown hook
 * if it is still running when the JVM exits (a shared cluster, a demo ended with Ctrl-C). The
 * broker's port survives {@link #stopBroker()} / {@link #startBroker()}: the test kit re-binds the
 * same port, so clients reconnect to the same bootstrap address.
 *
 * <p>Every cluster listens on one address, 127.0.0.1 unless asked otherwise: left to itself the
 * test kit binds its controller to every interface, and a broker that anyone on the network can
 * write to accepts forged history events.
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

    /** Listener names of our own, so that the listener settings below name them for sure. */
    private static final String BROKER = "EXTERNAL";
    private static final String CONTROLLER = "CONTROLLER";
    private static final String LOOPBACK = "127.0.0.1";

    private final KafkaClusterTestKit cluster;
    private final String bootstrapServers;
    private final Thread stopAtExit = new Thread(this::stop, "in-jvm-kafka-stop");
    private boolean stopped;

    private InJvmKafka(KafkaClusterTestKit cluster, String bootstrapServers) {
        this.cluster = cluster;
        this.bootstrapServers = bootstrapServers;
        Runtime.getRuntime().addShutdownHook(stopAtExit);
    }

    /** The JVM-wide cluster, started on first call and stopped at JVM exit. */
    public static synchronized InJvmKafka shared() {
        if (shared == null) {
            shared = startDedicated();
        }
        return shared;
    }

    /** A cluster of its own, listening on 127.0.0.1 only; the caller closes it. */
    public static InJvmKafka startDedicated() {
        return startDedicated(InetAddress.getLoopbackAddress());
    }

    /**
     * A cluster of its own whose broker and controller listen on {@code bindAddress} only; the
     * caller closes it. A wildcard address (0.0.0.0, ::) opens both to the network, and the broker
     * then advertises this machine's host name.
     */
    public static InJvmKafka startDedicated(InetAddress bindAddress) {
        Objects.requireNonNull(bindAddress, "bindAddress");
        ServerSocketChannel broker = null;
        ServerSocketChannel controller = null;
        try {
            // The test kit binds both listeners' sockets itself before the node starts, at the
            // wildcard address (PreboundSocketFactoryManager), whatever 'listeners' says. So they
            // are bound here, on the asked address, and handed to the test kit in their place.
            broker = bind(bindAddress);
            controller = bind(bindAddress);
            return start(bindAddress, broker, controller);
        } catch (Exception e) {
            closeQuietly(broker);
            closeQuietly(controller);
            throw new IllegalStateException("cannot start the in-JVM Kafka cluster on " + bindAddress.getHostAddress()
                    + ": " + e, e);
        }
    }

    private static InJvmKafka start(InetAddress bindAddress, ServerSocketChannel broker, ServerSocketChannel controller)
            throws Exception {
        Path directory = Files.createTempDirectory("isowatch-kafka-");
        int nodeId = nodes(directory, Map.of()).controllerNodes().firstKey();
        String host = literal(bindAddress);
        String advertised = bindAddress.isAnyLocalAddress() ? InetAddress.getLocalHost().getHostName() : host;
        int brokerPort = broker.socket().getLocalPort();
        int controllerPort = controller.socket().getLocalPort();
        String quorum = (bindAddress.isAnyLocalAddress() ? LOOPBACK : host) + ":" + controllerPort;
        TestKitNodes nodes = nodes(directory, Map.of(nodeId, Map.of(
                // The test kit writes these with 'localhost'; the node answers on bindAddress only.
                "controller.quorum.voters", nodeId + "@" + quorum,
                "controller.quorum.bootstrap.servers", quorum)));
        KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nodes)
                .setDeleteOnClose(true)
                .setConfigProp("listeners", BROKER + "://" + host + ":" + brokerPort + ","
                        + CONTROLLER + "://" + host + ":" + controllerPort)
                .setConfigProp("advertised.listeners", BROKER + "://" + advertised + ":" + brokerPort)
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("offsets.topic.num.partitions", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("auto.create.topics.enable", "false")
                // A restarted broker waits for its previous registration's session to lapse
                // (9 s by default) before it serves again; keep that short.
                .setConfigProp("broker.session.timeout.ms", "1500")
                .setConfigProp("broker.heartbeat.interval.ms", "300");
        prebind(builder, nodeId, Map.of(BROKER, broker, CONTROLLER, controller));
        KafkaClusterTestKit cluster = builder.build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        return new InJvmKafka(cluster, advertised + ":" + brokerPort);
    }

    /** A listener's socket, opened as Kafka's own ServerSocketFactory opens one: non-blocking. */
    private static ServerSocketChannel bind(InetAddress address) throws IOException {
        ServerSocketChannel channel = ServerSocketChannel.open();
        try {
            channel.configureBlocking(false);
            channel.socket().bind(new InetSocketAddress(address, 0));
            return channel;
        } catch (IOException e) {
            channel.close();
            throw e;
        }
    }

    private static void closeQuietly(ServerSocketChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Failing to start already; the start's exception says why.
            }
        }
    }

    private static TestKitNodes nodes(Path directory, Map<Integer, Map<String, String>> perNode) {
        return new TestKitNodes.Builder()
                .setBaseDirectory(directory)
                .setCombined(true)
                .setNumBrokerNodes(1)
                .setNumControllerNodes(1)
                .setBrokerListenerName(new ListenerName(BROKER))
                .setControllerListenerName(new ListenerName(CONTROLLER))
                .setPerServerProperties(perNode)
                .build();
    }

    /**
     * Puts the node's listener sockets into the builder's pre-bound sockets, where the test kit
     * looks before it binds its own. It offers no setter for this, hence reflection; should a
     * Kafka upgrade rename the fields, every start fails here, naming them.
     */
    @SuppressWarnings("unchecked")
    private static void prebind(KafkaClusterTestKit.Builder builder, int nodeId, Map<String, ServerSocketChannel> listeners) {
        try {
            Field managerField = KafkaClusterTestKit.Builder.class.getDeclaredField("socketFactoryManager");
            managerField.setAccessible(true);
            PreboundSocketFactoryManager manager = (PreboundSocketFactoryManager) managerField.get(builder);
            Field socketsField = PreboundSocketFactoryManager.class.getDeclaredField("sockets");
            socketsField.setAccessible(true);
            Map<Integer, Map<String, ServerSocketChannel>> sockets =
                    (Map<Integer, Map<String, ServerSocketChannel>>) socketsField.get(manager);
            synchronized (manager) {
                sockets.computeIfAbsent(nodeId, id -> new HashMap<>()).putAll(listeners);
            }
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("Kafka's test kit no longer has KafkaClusterTestKit.Builder."
                    + "socketFactoryManager or PreboundSocketFactoryManager.sockets (" + e + "): InJvmKafka "
                    + "cannot bind its listeners to one address; adapt InJvmKafka.prebind to the new test kit", e);
        }
    }

    /** The address as a host in a URL or a Kafka listener: IPv6 in brackets. */
    private static String literal(InetAddress address) {
        String host = address.getHostAddress();
        return address instanceof Inet6Address ? "[" + host + "]" : host;
    }

    /**
     * {@code HOST:PORT} of the broker: HOST is the address it listens on, or this machine's host
     * name when that is a wildcard. The port survives {@link #stopBroker()}.
     */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Creates a topic with one replica and waits until it exists. */
    public void createTopic(String topic, int partitions) {
        createTopic(topic, partitions, Map.of());
    }

    /** Creates a topic with one replica and the given topic configuration, and waits until it exists. */
    public void createTopic(String topic, int partitions, Map<String, String> config) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(config)))
                    .all().get(30, TimeUnit.SECONDS);
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
