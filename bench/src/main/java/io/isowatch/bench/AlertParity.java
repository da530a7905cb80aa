package io.isowatch.bench;

import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.FindingId;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.CheckerOptionsReader;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryReader;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Compares the alerts a job delivered to its topic with the findings {@code check} makes of the
 * same history, one for one by stable id. Usage: {@code AlertParity HISTORY AGENT_ID BOOTSTRAP
 * ALERTS_TOPIC MODELS} (or {@code --ids FILE} for BOOTSTRAP ALERTS_TOPIC: the ids saved before),
 * {@code AlertParity --count BOOTSTRAP ALERTS_TOPIC} for the number of records in the topic alone,
 * {@code AlertParity --save BOOTSTRAP ALERTS_TOPIC FILE} to keep the topic's ids in a file. Prints, per anomaly type, the findings offline, those delivered live,
 * those delivered live that the offline check does not make (must be none: a false alarm) and the
 * records that repeated an id; exits 1 when any live finding is not an offline one.
 */
public final class AlertParity {

    /** Per finding: found during the stream or only at the end (finish), and its transactions' time span. */
    private static final Map<String, String> SPAN = new HashMap<>();

    private AlertParity() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--count")) {
            System.out.println(liveRecords(args[1], args[2]).values().stream().mapToLong(Integer::longValue).sum());
            return;
        }
        if (args[0].equals("--save")) {
            // One line per record: the alert id. Kept beside the history, the comparison can be run again.
            List<String> lines = new java.util.ArrayList<>();
            liveRecords(args[1], args[2]).forEach((id, n) -> {
                for (int i = 0; i < n; i++) {
                    lines.add(id);
                }
            });
            java.nio.file.Files.write(Path.of(args[3]), lines);
            return;
        }
        Path history = Path.of(args[0]);
        String agent = args[1];
        Map<String, String> offline = offlineFindings(history, agent, args[4], SPAN);
        Map<String, Integer> live = args[2].equals("--ids") ? savedRecords(Path.of(args[3])) : liveRecords(args[2], args[3]);
        Map<String, int[]> byType = new TreeMap<>();
        offline.forEach((id, type) -> byType.computeIfAbsent(type, t -> new int[4])[0]++);
        long records = 0;
        int liveOnly = 0;
        for (Map.Entry<String, Integer> e : live.entrySet()) {
            records += e.getValue();
            String type = offline.get(e.getKey());
            if (type == null) {
                liveOnly++;
                byType.computeIfAbsent("(not offline)", t -> new int[4])[2]++;
                continue;
            }
            int[] row = byType.get(type);
            row[1]++;
            row[3] += e.getValue() - 1;
        }
        System.out.printf("%-28s %10s %10s %10s %10s%n", "type", "offline", "live", "live-only", "repeats");
        byType.forEach((type, row) -> System.out.printf("%-28s %,10d %,10d %,10d %,10d%n", type, row[0], row[1], row[2], row[3]));
        System.out.printf("all: %,d offline, %,d live (%,d records), %,d live-only, %,d offline-only%n", offline.size(),
                live.size(), records, liveOnly, offline.keySet().stream().filter(id -> !live.containsKey(id)).count());
        System.out.println("offline-only, with when the check found it and the wall-clock span of its transactions:");
        offline.keySet().stream().filter(id -> !live.containsKey(id)).sorted()
                .forEach(id -> System.out.println("  " + id + " " + offline.get(id) + " " + SPAN.get(id)));
        System.exit(liveOnly == 0 ? 0 : 1);
    }

    /** Each finding's id, with its type, as the job computes ids for the agent's history. */
    private static Map<String, String> offlineFindings(Path history, String agent, String models,
                                                       Map<String, String> spans) throws Exception {
        AtomTable atoms = new AtomTable();
        CheckerOptions options = CheckerOptionsReader.read(Map.of(CheckerOptionsReader.CONSISTENCY_MODELS, models),
                key -> "option " + key);
        Map<String, String> found = new HashMap<>();
        boolean[] finishing = {false};
        IncrementalChecker checker = new IncrementalChecker(options, atoms, (Finding f) -> {
            String id = FindingId.of(f, atoms, agent);
            found.put(id, f.type().elleName());
            long first = f.txns().stream().mapToLong(t -> t.invokeTime()).min().orElse(0);
            long last = f.txns().stream().mapToLong(t -> t.completion().time()).max().orElse(0);
            spans.put(id, (finishing[0] ? "at the end" : "streamed") + ", " + java.time.Instant.ofEpochMilli(first / 1_000_000)
                    + " .. " + java.time.Instant.ofEpochMilli(last / 1_000_000) + " (" + (last - first) / 1_000_000 + " ms)");
        });
        try (HistoryReader reader = HistoryReader.open(history, atoms)) {
            for (Op op = reader.next(); op != null; op = reader.next()) {
                checker.accept(op);
            }
        }
        finishing[0] = true;
        checker.finish();
        return found;
    }

    /** Records per alert id in a file {@code --save} wrote. */
    private static Map<String, Integer> savedRecords(Path ids) throws java.io.IOException {
        Map<String, Integer> records = new HashMap<>();
        for (String id : java.nio.file.Files.readAllLines(ids)) {
            records.merge(id, 1, Integer::sum);
        }
        return records;
    }

    /** Records per alert id in the topic, read from its start to its end. */
    private static Map<String, Integer> liveRecords(String bootstrap, String topic) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        Map<String, Integer> records = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    records.merge(new String(r.key(), StandardCharsets.UTF_8), 1, Integer::sum);
                }
            }
        }
        return records;
    }
}
