package io.isowatch.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.agentcli.ExitCodes;
import io.isowatch.localkafka.InJvmKafka;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One history from a fleet, on real systems: three {@code agent run} processes (separate JVMs,
 * so no clock object or memory is shared) join one named history against one PostgreSQL server
 * and ship to a real KRaft broker; {@code isowatch job}, a process of its own, checks the
 * history as one. Each agent also writes its own history file, which {@code isowatch check}
 * merges offline with the same clock uncertainty.
 *
 * <ul>
 *   <li>At REPEATABLE READ (snapshot isolation) the job reports write skews, at least one of them
 *       between transactions of two different agents, and the job's anomaly types are the ones
 *       {@code check} finds in the three files.</li>
 *   <li>At SERIALIZABLE, with the agents' clocks offset from each other by less than the clock
 *       uncertainty, neither reports a cycle, and strict-serializable finds no realtime anomaly.</li>
 *   <li>With one agent's clock half a second behind (beyond the uncertainty), strict-serializable
 *       on the same correct store shows realtime anomalies that are false: the reason the setting
 *       exists. Given an uncertainty above the offset, they are gone.</li>
 * </ul>
 */
class FleetPostgresIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String UNCERTAINTY = "100ms";
    private static final long MEMBER_STRIDE = 1_000_000_000L;
    private static final Set<String> CYCLES = Set.of("G0", "G1c", "G-single", "G-single-item", "G-nonadjacent",
            "G-nonadjacent-item", "G2", "G2-item");

    private static EmbeddedPostgres pg;
    private static String url;

    @TempDir
    Path dir;

    @BeforeAll
    static void startPostgres() throws Exception {
        Path data = Path.of("target", "fleet-postgres").toAbsolutePath();
        Files.createDirectories(data);
        pg = EmbeddedPostgres.builder()
                .setOverrideWorkingDirectory(data.toFile())
                .setDataDirectory(data.resolve("data"))
                .setCleanDataDirectory(true)
                .setServerConfig("fsync", "off")
                .setServerConfig("max_connections", "100")
                .setServerConfig("deadlock_timeout", "10ms") // as PostgresIsolationIT: contended appends deadlock often
                .start();
        url = "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    @Test
    void threeAgents_oneHistory_writeSkewAcrossAgentsAtRepeatableRead_noneAtSerializable() throws Exception {
        InJvmKafka kafka = InJvmKafka.shared();
        String suffix = Long.toString(System.nanoTime());
        String topic = "fleet-history-" + suffix;
        String alerts = "fleet-alerts-" + suffix;
        String dead = "fleet-dead-" + suffix;
        kafka.createTopic(topic, 3);
        kafka.createTopic(alerts, 1);
        kafka.createTopic(dead, 1);
        LauncherProcess job = LauncherProcess.start("1g", dir.resolve("job.err"), List.of("job", "--bootstrap-servers",
                kafka.bootstrapServers(), "--history-topic", topic, "--alerts-topic", alerts, "--dead-letter-topic",
                dead, "--checkpoint-dir", dir.resolve("checkpoints").toString(), "--max-out-of-orderness", "200ms",
                "--idle-timeout", "3s", "--consistency-models", "serializable", "--clock-uncertainty", UNCERTAINTY));
        try {
            // Serializable first, with the clocks 40 ms apart either way: less than the uncertainty.
            String serializable = "ser-" + suffix;
            List<Path> serFiles = runFleet(serializable, "serializable", List.of("0ms", "40ms", "-40ms"), kafka, topic);
            String repeatable = "rr-" + suffix;
            List<Path> rrFiles = runFleet(repeatable, "repeatable-read", List.of("0ms", "0ms", "0ms"), kafka, topic);

            Set<String> offline = anomalyTypes(check("serializable", UNCERTAINTY, rrFiles));
            assertTrue(offline.contains("G2-item"), "snapshot isolation allows write skew: " + offline);
            List<JsonNode> found = new ArrayList<>();
            await(() -> {
                found.clear();
                found.addAll(alertsOf(kafka, alerts, repeatable));
                return types(found).equals(offline);
            }, () -> "the job's anomaly types " + types(found) + " are check's " + offline + "\n" + job.err());
            assertTrue(found.stream().filter(a -> CYCLES.contains(a.path("type").asText()))
                            .anyMatch(a -> members(a.path("finding")).size() >= 2 && a.path("agents").size() >= 2),
                    "a cycle between transactions of two agents: " + found.stream().map(a -> a.path("type").asText()
                            + " " + members(a.path("finding")) + " " + a.path("agents")).toList());

            // By now the job has merged the serializable history too: its events lie before the
            // repeatable-read history's in every partition, and the watermark has passed them.
            Set<String> serJob = types(alertsOf(kafka, alerts, serializable));
            assertTrue(serJob.stream().noneMatch(CYCLES::contains), "no cycle at serializable (job): " + serJob);
            Set<String> serOffline = anomalyTypes(check("serializable", UNCERTAINTY, serFiles));
            assertTrue(serOffline.stream().noneMatch(CYCLES::contains), "no cycle at serializable (check): " + serOffline);
            Set<String> strict = anomalyTypes(check("strict-serializable", UNCERTAINTY, serFiles));
            assertTrue(strict.stream().noneMatch(t -> t.endsWith("realtime")),
                    "clocks 80 ms apart at most, under a 100 ms uncertainty: no realtime anomaly: " + strict);
        } finally {
            job.kill();
        }
    }

    @Test
    void aClockBehindByMoreThanTheUncertainty_makesFalseRealtimeAnomalies_thatALargerUncertaintyRemoves()
            throws Exception {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = "fleet-skew-" + System.nanoTime();
        kafka.createTopic(topic, 1);
        List<Path> files = runFleet("skew-" + System.nanoTime(), "serializable", List.of("0ms", "-500ms"), kafka,
                topic);
        Set<String> skewed = anomalyTypes(check("strict-serializable", UNCERTAINTY, files));
        assertTrue(skewed.stream().anyMatch(t -> t.endsWith("realtime")),
                "a clock 500 ms behind, under a 100 ms uncertainty: false realtime anomalies: " + skewed);
        Set<String> covered = anomalyTypes(check("strict-serializable", "1s", files));
        assertTrue(covered.stream().noneMatch(t -> t.endsWith("realtime")),
                "the same files under a 1 s uncertainty: none: " + covered);
    }

    /**
     * Runs one agent process per clock offset, members 0.. of {@code history}, to completion.
     * Member 0 starts first and creates the history's tables; the others join once it is recording.
     */
    private List<Path> runFleet(String history, String isolation, List<String> offsets, InJvmKafka kafka,
                                String topic) throws Exception {
        List<LauncherProcess> agents = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        try {
            for (int member = 0; member < offsets.size(); member++) {
                Path out = dir.resolve(history + "-" + member + ".jsonl");
                files.add(out);
                LauncherProcess agent = LauncherProcess.start("512m", dir.resolve(history + "-" + member + ".err"), List.of("agent", "run",
                        "--target", url, "--user", "postgres", "--isolation", isolation, "--history", history,
                        "--member", Integer.toString(member), "--clock-offset", offsets.get(member),
                        // A history begins on tables without another run's rows (decision 0021).
                        "--table-prefix", history.replace('-', '_'),
                        "--bootstrap-servers", kafka.bootstrapServers(), "--topic", topic,
                        "--spool-dir", dir.resolve(history + "-spool-" + member).toString(),
                        // Member 0 runs longer, as it starts first: all three overlap for about 6 s.
                        "--history-out", out.toString(), "--duration", member == 0 ? "9s" : "6s", "--rate", "0",
                        "--concurrency", "4", "--keys", "4"));
                agents.add(agent);
                if (member == 0) {
                    await(() -> agent.err().contains("txn/s"), () -> "member 0 is not recording: " + agent.err());
                }
            }
            for (LauncherProcess agent : agents) {
                int code = agent.await(WAIT.toSeconds());
                assertTrue(code == ExitCodes.VALID || code == ExitCodes.INVALID, "agent failed: " + agent.err());
            }
        } finally {
            for (LauncherProcess agent : agents) {
                agent.process().destroyForcibly();
            }
        }
        return files;
    }

    private static JsonNode check(String model, String uncertainty, List<Path> files) throws IOException {
        List<String> args = new ArrayList<>(List.of("check", "-c", model, "--clock-uncertainty", uncertainty,
                "--format", "json"));
        files.forEach(f -> args.add(f.toString()));
        CheckCommandTest.Run r = CheckCommandTest.run(args.toArray(String[]::new));
        assertTrue(r.code() == ExitCodes.VALID || r.code() == ExitCodes.INVALID, r.err());
        return new ObjectMapper().readTree(r.out());
    }

    private static Set<String> anomalyTypes(JsonNode verdict) {
        Set<String> types = new TreeSet<>();
        verdict.path("anomaly-types").forEach(t -> types.add(t.asText()));
        return types;
    }

    private static Set<String> types(List<JsonNode> alerts) {
        Set<String> types = new TreeSet<>();
        alerts.forEach(a -> types.add(a.path("type").asText()));
        return types;
    }

    private static List<JsonNode> alertsOf(InJvmKafka kafka, String topic, String history) {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readTopic(topic, read -> false, Duration.ofSeconds(2))) {
            try {
                JsonNode alert = json.readTree(new String(r.value(), StandardCharsets.UTF_8));
                if (history.equals(alert.path("history").asText())) {
                    out.add(alert);
                }
            } catch (IOException e) {
                throw new AssertionError("unreadable alert: " + e.getMessage(), e);
            }
        }
        return out;
    }

    /** The members whose processes ran a finding's transactions (member m owns processes m × 10⁹ + n). */
    private static Set<Long> members(JsonNode finding) {
        Set<Long> members = new HashSet<>();
        collectProcesses(finding, members);
        return members;
    }

    private static void collectProcesses(JsonNode node, Set<Long> members) {
        if (node.isObject()) {
            Iterator<String> names = node.fieldNames();
            while (names.hasNext()) {
                String name = names.next();
                JsonNode child = node.get(name);
                if (name.equals("process") && child.isIntegralNumber()) {
                    members.add(child.asLong() / MEMBER_STRIDE);
                } else {
                    collectProcesses(child, members);
                }
            }
        } else if (node.isArray()) {
            node.forEach(child -> collectProcesses(child, members));
        }
    }

    private static void await(BooleanSupplier condition, Supplier<String> what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + WAIT + ": " + what.get());
            }
            Thread.sleep(300);
        }
    }
}
