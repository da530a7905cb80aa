package io.isowatch.bench;

import io.isowatch.agent.transport.ChronicleHistoryLog;
import io.isowatch.agent.transport.KafkaShipper;
import io.isowatch.agent.transport.ShipperOptions;
import io.isowatch.agent.transport.SpoolOptions;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The spool-to-Kafka path end to end, against a KRaft broker in this JVM: appends N events to a
 * fresh Chronicle spool on one thread (reporting events/s and per-append latency percentiles),
 * then starts a {@link KafkaShipper} and times how long it takes to drain the spool into a
 * 4-partition topic with {@code acks=all} (reporting events/s). Not JMH: shipping is a
 * one-shot drain of a backlog, which is the quantity that matters after an outage.
 *
 * <p>Usage (the Chronicle JVM flags from the parent pom are required):
 * <pre>
 *   java $ISOWATCH_JVM_FLAGS -cp bench/target/benchmarks.jar io.isowatch.bench.ShipperBenchmark \
 *        [events=1000000] [compression=lz4] [rounds=20000] [runs=1] [dir=/tmp]
 * </pre>
 * Target: shipping at least 200,000 events/s.
 */
public final class ShipperBenchmark {

    private ShipperBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new java.util.HashMap<>(Map.of(
                "events", "1000000", "compression", "lz4", "rounds", "20000", "runs", "1",
                "dir", System.getProperty("java.io.tmpdir")));
        for (String a : args) {
            String[] kv = a.split("=", 2);
            if (kv.length != 2 || !opts.containsKey(kv[0])) {
                throw new IllegalArgumentException("unknown argument " + a + "; expected key=value with key in " + opts.keySet());
            }
            opts.put(kv[0], kv[1]);
        }
        int events = Integer.parseInt(opts.get("events"));
        ShipperOptions shipperOptions = ShipperOptions.defaults()
                .toBuilder().compression(opts.get("compression"))
                .maxEventsPerRound(Integer.parseInt(opts.get("rounds"))).build();
        int runs = Integer.parseInt(opts.get("runs"));

        long t0 = System.nanoTime();
        KafkaClusterTestKit cluster = startBroker();
        try {
            System.out.printf("broker started in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            for (int run = 1; run <= runs; run++) {
                String topic = "isowatch.history.bench" + run;
                createTopic(cluster.bootstrapServers(), topic);
                Path dir = Files.createTempDirectory(Path.of(opts.get("dir")), "isowatch-spool-bench");
                try {
                    runOnce(run, dir, cluster.bootstrapServers(), topic, events, shipperOptions);
                } finally {
                    deleteRecursively(dir);
                }
            }
        } finally {
            cluster.close();
        }
    }

    private static void runOnce(int run, Path dir, String bootstrap, String topic, int n, ShipperOptions options) {
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, SpoolOptions.defaults(), new AtomTable(), null)) {
            long[] latencies = new long[n];
            long start = System.nanoTime();
            for (int seq = 0; seq < n; seq++) {
                HistoryEvent e = event(seq);
                long before = System.nanoTime();
                log.append(e);
                latencies[seq] = System.nanoTime() - before;
            }
            long appendNanos = System.nanoTime() - start;
            Arrays.sort(latencies);

            long shipStart = System.nanoTime();
            long shipped;
            try (KafkaShipper shipper = KafkaShipper.start(log, bootstrap, topic, options, null)) {
                while (log.backlog() > 0) {
                    if (!shipper.isRunning()) {
                        throw new IllegalStateException("shipper stopped: " + shipper.failure());
                    }
                    sleepMillis(1);
                }
                shipped = shipper.shipped();
            }
            long shipNanos = System.nanoTime() - shipStart;

            System.out.printf("run %d: %,d events, %s compression, %,d events per round%n", run, n,
                    options.compression(), options.maxEventsPerRound());
            System.out.printf("  append: %,.0f events/s (%.2f s); latency p50 %.2f us, p99 %.2f us, p99.9 %.2f us, max %.1f us%n",
                    n / (appendNanos / 1e9), appendNanos / 1e9, pct(latencies, 0.50), pct(latencies, 0.99),
                    pct(latencies, 0.999), latencies[n - 1] / 1e3);
            System.out.printf("  ship:   %,.0f events/s (%.2f s, %,d shipped, producer start included)%n",
                    shipped / (shipNanos / 1e9), shipNanos / 1e9, shipped);
        }
    }

    private static double pct(long[] sorted, double q) {
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e3;
    }

    /** A list-append history shape: invoke then ok, two micro-ops, 64 processes, 1,000 keys. */
    private static HistoryEvent event(long seq) {
        long txn = seq / 2;
        boolean invoke = seq % 2 == 0;
        List<MicroOp> mops = List.of(new MicroOp.Append(txn % 1_000, txn),
                new MicroOp.Read((txn * 7) % 1_000, invoke ? null : new long[] {txn - 2, txn - 1, txn}));
        return new HistoryEvent("bench-agent", seq, new Op(seq, seq * 1_000, invoke ? OpType.INVOKE : OpType.OK, txn % 64, mops));
    }

    private static KafkaClusterTestKit startBroker() throws Exception {
        TestKitNodes nodes = new TestKitNodes.Builder()
                .setCombined(true)
                .setNumBrokerNodes(1)
                .setNumControllerNodes(1)
                .build();
        KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(nodes)
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        return cluster;
    }

    private static void createTopic(String bootstrap, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 4, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("cannot delete " + dir + ": " + e);
        }
    }
}
