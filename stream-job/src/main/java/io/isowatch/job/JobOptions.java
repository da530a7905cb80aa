package io.isowatch.job;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.CheckerOptionsReader;
import io.isowatch.checker.Workload;
import io.isowatch.config.Durations;
import io.isowatch.config.Topics;
import io.isowatch.sinks.ConsoleLink;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The job's options, parsed once at start-up from {@code key -> value} strings. Unknown keys are
 * rejected by name, so a typo fails at once rather than being silently ignored.
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>bootstrap-servers</td><td>(none)</td><td>Kafka brokers; needed only for the Kafka source</td></tr>
 *   <tr><td>history-topic</td><td>isowatch.history</td><td>topic the agents ship events to</td></tr>
 *   <tr><td>group-id</td><td>isowatch-job</td><td>Kafka consumer group (offsets live in checkpoints)</td></tr>
 *   <tr><td>starting-offsets</td><td>earliest</td><td>earliest, latest or committed (falling back to earliest)</td></tr>
 *   <tr><td>max-out-of-orderness</td><td>5s</td><td>how far behind the newest event time an event may arrive; later ones go to late-events</td></tr>
 *   <tr><td>idle-timeout</td><td>30s</td><td>a Kafka partition silent this long stops holding back the watermark; 0 disables</td></tr>
 *   <tr><td>dedupe-retention</td><td>60s</td><td>event time a process's progress (re-send detection, info retirement) is kept after its last transaction</td></tr>
 *   <tr><td>parallelism</td><td>1</td><td>default operator parallelism</td></tr>
 *   <tr><td>max-parallelism</td><td>128</td><td>key groups; fixed for the life of the job's state</td></tr>
 *   <tr><td>checkpoint-interval</td><td>10s</td><td>0 disables checkpointing (tests only)</td></tr>
 *   <tr><td>checkpoint-dir</td><td>(none)</td><td>durable checkpoint storage (a path or a URI such as
 *   file:///var/lib/isowatch/checkpoints or s3://bucket/checkpoints); none: the Flink cluster's own
 *   execution.checkpointing.dir (a local cluster gets one from its launcher)</td></tr>
 *   <tr><td>max-restarts</td><td>10</td><td>failures the job restarts from (its latest checkpoint) within one
 *   restart-window; one more fails it for good</td></tr>
 *   <tr><td>restart-window</td><td>10m</td><td>the window max-restarts counts failures in</td></tr>
 *   <tr><td>kafka-timeout</td><td>30s</td><td>how long the start-up check waits for the brokers and the
 *   job's topics before the job refuses to start</td></tr>
 *   <tr><td>state-backend</td><td>rocksdb</td><td>rocksdb or hashmap</td></tr>
 *   <tr><td>alerts-topic</td><td>isowatch.alerts</td><td>topic of the alerts, one JSON finding per record, keyed by its stable id</td></tr>
 *   <tr><td>dead-letter-topic</td><td>isowatch.dead-letters</td><td>topic of malformed records, protocol faults and late events</td></tr>
 *   <tr><td>alerts-webhook</td><td>(none)</td><td>Alertmanager base URL (e.g. http://alertmanager:9093); alerts are POSTed to /api/v2/alerts</td></tr>
 *   <tr><td>ui-base-url</td><td>(none)</td><td>the findings console's address as readers reach it (e.g. https://isowatch.example.com);
 *   alerts then carry a link to their finding's page ({@link ConsoleLink})</td></tr>
 *   <tr><td>consistency-models, anomalies, workload, cycle-search-budget, cycle-search-timeout,
 *   wfr-keys, sequential-keys, linearizable-keys</td><td>as {@code check}</td><td>the checker's options, read by
 *   {@link CheckerOptionsReader} exactly as {@code check}'s -c, -a, -m and the rest</td></tr>
 *   <tr><td>history-retention</td><td>60s</td><td>event time a history's transactions stay checkable; older ones are forgotten, bounding memory; 0 keeps all</td></tr>
 *   <tr><td>rocksdb-compression</td><td>none</td><td>compression of RocksDB's files: none, snappy, lz4 or zstd</td></tr>
 * </table>
 *
 * Durations are read by {@link Durations}: a number with a unit ({@code 500ms}, {@code 5s},
 * {@code 2m}, {@code 1h}; a bare number is seconds) or ISO-8601 ({@code PT5S}).
 */
public record JobOptions(
        String bootstrapServers,
        String historyTopic,
        String groupId,
        String startingOffsets,
        Duration maxOutOfOrderness,
        Duration idleTimeout,
        Duration dedupeRetention,
        int parallelism,
        int maxParallelism,
        Duration checkpointInterval,
        String stateBackend,
        String alertsTopic,
        String deadLetterTopic,
        String alertsWebhook,
        CheckerOptions checker,
        Duration historyRetention,
        String rocksdbCompression,
        String uiBaseUrl,
        String checkpointDir,
        int maxRestarts,
        Duration restartWindow,
        Duration kafkaTimeout) {

    public static final String BOOTSTRAP_SERVERS = "bootstrap-servers";
    public static final String HISTORY_TOPIC = "history-topic";
    public static final String GROUP_ID = "group-id";
    public static final String STARTING_OFFSETS = "starting-offsets";
    public static final String MAX_OUT_OF_ORDERNESS = "max-out-of-orderness";
    public static final String IDLE_TIMEOUT = "idle-timeout";
    public static final String DEDUPE_RETENTION = "dedupe-retention";
    public static final String PARALLELISM = "parallelism";
    public static final String MAX_PARALLELISM = "max-parallelism";
    public static final String CHECKPOINT_INTERVAL = "checkpoint-interval";
    public static final String STATE_BACKEND = "state-backend";
    public static final String ALERTS_TOPIC = "alerts-topic";
    public static final String DEAD_LETTER_TOPIC = "dead-letter-topic";
    public static final String ALERTS_WEBHOOK = "alerts-webhook";
    public static final String CONSISTENCY_MODELS = CheckerOptionsReader.CONSISTENCY_MODELS;
    public static final String WORKLOAD = CheckerOptionsReader.WORKLOAD;
    public static final String HISTORY_RETENTION = "history-retention";
    public static final String ROCKSDB_COMPRESSION = "rocksdb-compression";
    public static final String UI_BASE_URL = "ui-base-url";
    public static final String CHECKPOINT_DIR = "checkpoint-dir";
    public static final String MAX_RESTARTS = "max-restarts";
    public static final String RESTART_WINDOW = "restart-window";
    public static final String KAFKA_TIMEOUT = "kafka-timeout";

    /** Every key, with its default ("" for none). */
    public static final Map<String, String> DEFAULTS = defaults();

    private static final List<String> OFFSETS = List.of("earliest", "latest", "committed");
    private static final List<String> BACKENDS = List.of("rocksdb", "hashmap");
    private static final List<String> COMPRESSIONS = List.of("none", "snappy", "lz4", "zstd");

    public JobOptions {
        Objects.requireNonNull(bootstrapServers, BOOTSTRAP_SERVERS);
        requireText(historyTopic, HISTORY_TOPIC);
        requireText(groupId, GROUP_ID);
        requireOneOf(startingOffsets, STARTING_OFFSETS, OFFSETS);
        requireNonNegative(maxOutOfOrderness, MAX_OUT_OF_ORDERNESS);
        requireNonNegative(idleTimeout, IDLE_TIMEOUT);
        requireNonNegative(dedupeRetention, DEDUPE_RETENTION);
        requireNonNegative(checkpointInterval, CHECKPOINT_INTERVAL);
        requireOneOf(stateBackend, STATE_BACKEND, BACKENDS);
        requireText(alertsTopic, ALERTS_TOPIC);
        requireText(deadLetterTopic, DEAD_LETTER_TOPIC);
        Objects.requireNonNull(alertsWebhook, ALERTS_WEBHOOK);
        Objects.requireNonNull(checker, "checker options");
        requireNonNegative(historyRetention, HISTORY_RETENTION);
        requireOneOf(rocksdbCompression, ROCKSDB_COMPRESSION, COMPRESSIONS);
        Objects.requireNonNull(uiBaseUrl, UI_BASE_URL);
        try {
            ConsoleLink.ofNullable(uiBaseUrl);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("option " + UI_BASE_URL + ": " + e.getMessage());
        }
        Objects.requireNonNull(checkpointDir, CHECKPOINT_DIR);
        requireNonNegative(restartWindow, RESTART_WINDOW);
        requireNonNegative(kafkaTimeout, KAFKA_TIMEOUT);
        if (maxRestarts < 0) {
            throw new IllegalArgumentException(MAX_RESTARTS + " must not be negative, got " + maxRestarts);
        }
        if (maxRestarts > 0 && restartWindow.isZero()) {
            throw new IllegalArgumentException(RESTART_WINDOW + " must be positive when " + MAX_RESTARTS
                    + " is, e.g. 10m");
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException(PARALLELISM + " must be at least 1, got " + parallelism);
        }
        if (maxParallelism < parallelism || maxParallelism > 32768) {
            throw new IllegalArgumentException(MAX_PARALLELISM + " must lie in [" + PARALLELISM + " = "
                    + parallelism + ", 32768], got " + maxParallelism);
        }
    }

    /** The options with every key at its default. */
    public static JobOptions defaultOptions() {
        return parse(Map.of());
    }

    /**
     * Parses options; missing keys take their defaults.
     *
     * @throws IllegalArgumentException naming the first unknown key(s), or the key and value
     *                                  that cannot be parsed
     */
    public static JobOptions parse(Map<String, String> raw) {
        TreeSet<String> unknown = new TreeSet<>(raw.keySet());
        unknown.removeAll(DEFAULTS.keySet());
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown job option(s) " + unknown + "; known options are "
                    + DEFAULTS.keySet());
        }
        Map<String, String> v = new LinkedHashMap<>(DEFAULTS);
        v.putAll(raw);
        return new JobOptions(
                v.get(BOOTSTRAP_SERVERS).trim(),
                v.get(HISTORY_TOPIC).trim(),
                v.get(GROUP_ID).trim(),
                v.get(STARTING_OFFSETS).trim().toLowerCase(Locale.ROOT),
                duration(MAX_OUT_OF_ORDERNESS, v.get(MAX_OUT_OF_ORDERNESS)),
                duration(IDLE_TIMEOUT, v.get(IDLE_TIMEOUT)),
                duration(DEDUPE_RETENTION, v.get(DEDUPE_RETENTION)),
                integer(PARALLELISM, v.get(PARALLELISM)),
                integer(MAX_PARALLELISM, v.get(MAX_PARALLELISM)),
                duration(CHECKPOINT_INTERVAL, v.get(CHECKPOINT_INTERVAL)),
                v.get(STATE_BACKEND).trim().toLowerCase(Locale.ROOT),
                v.get(ALERTS_TOPIC).trim(),
                v.get(DEAD_LETTER_TOPIC).trim(),
                v.get(ALERTS_WEBHOOK).trim(),
                CheckerOptionsReader.read(v, key -> "option " + key),
                duration(HISTORY_RETENTION, v.get(HISTORY_RETENTION)),
                v.get(ROCKSDB_COMPRESSION).trim().toLowerCase(Locale.ROOT),
                v.get(UI_BASE_URL).trim(),
                v.get(CHECKPOINT_DIR).trim(),
                integer(MAX_RESTARTS, v.get(MAX_RESTARTS)),
                duration(RESTART_WINDOW, v.get(RESTART_WINDOW)),
                duration(KAFKA_TIMEOUT, v.get(KAFKA_TIMEOUT)));
    }

    /** Returns a copy with one option changed, parsed as {@link #parse} would. */
    public JobOptions with(String key, String value) {
        Map<String, String> m = new LinkedHashMap<>(asMap());
        m.put(key, value);
        return parse(m);
    }

    /** The options as strings, one entry per key; {@code parse(asMap())} gives an equal record. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(BOOTSTRAP_SERVERS, bootstrapServers);
        m.put(HISTORY_TOPIC, historyTopic);
        m.put(GROUP_ID, groupId);
        m.put(STARTING_OFFSETS, startingOffsets);
        m.put(MAX_OUT_OF_ORDERNESS, maxOutOfOrderness.toMillis() + "ms");
        m.put(IDLE_TIMEOUT, idleTimeout.toMillis() + "ms");
        m.put(DEDUPE_RETENTION, dedupeRetention.toMillis() + "ms");
        m.put(PARALLELISM, Integer.toString(parallelism));
        m.put(MAX_PARALLELISM, Integer.toString(maxParallelism));
        m.put(CHECKPOINT_INTERVAL, checkpointInterval.toMillis() + "ms");
        m.put(STATE_BACKEND, stateBackend);
        m.put(ALERTS_TOPIC, alertsTopic);
        m.put(DEAD_LETTER_TOPIC, deadLetterTopic);
        m.put(ALERTS_WEBHOOK, alertsWebhook);
        m.putAll(CheckerOptionsReader.write(checker));
        m.remove(CheckerOptionsReader.REORDER_WINDOW);
        m.put(HISTORY_RETENTION, historyRetention.toMillis() + "ms");
        m.put(ROCKSDB_COMPRESSION, rocksdbCompression);
        m.put(UI_BASE_URL, uiBaseUrl);
        m.put(CHECKPOINT_DIR, checkpointDir);
        m.put(MAX_RESTARTS, Integer.toString(maxRestarts));
        m.put(RESTART_WINDOW, restartWindow.toMillis() + "ms");
        m.put(KAFKA_TIMEOUT, kafkaTimeout.toMillis() + "ms");
        return m;
    }

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put(BOOTSTRAP_SERVERS, "");
        d.put(HISTORY_TOPIC, Topics.HISTORY);
        d.put(GROUP_ID, "isowatch-job");
        d.put(STARTING_OFFSETS, "earliest");
        d.put(MAX_OUT_OF_ORDERNESS, "5s");
        d.put(IDLE_TIMEOUT, "30s");
        d.put(DEDUPE_RETENTION, "60s");
        d.put(PARALLELISM, "1");
        d.put(MAX_PARALLELISM, "128");
        d.put(CHECKPOINT_INTERVAL, "10s");
        d.put(STATE_BACKEND, "rocksdb");
        d.put(ALERTS_TOPIC, Topics.ALERTS);
        d.put(DEAD_LETTER_TOPIC, Topics.DEAD_LETTERS);
        d.put(ALERTS_WEBHOOK, "");
        // The checker's keys, but reorder-window: the job hands the checker its events in order.
        CheckerOptionsReader.DEFAULTS.forEach((key, value) -> {
            if (!key.equals(CheckerOptionsReader.REORDER_WINDOW)) {
                d.put(key, value);
            }
        });
        d.put(HISTORY_RETENTION, "60s");
        // Nearly all the job's RocksDB data is checked-batches, written once and read only on a
        // restore: compressing it cost ~5% of the CPU at 50,000 txn/s (docs/benchmarks-archive.md).
        d.put(ROCKSDB_COMPRESSION, "none");
        d.put(UI_BASE_URL, "");
        d.put(CHECKPOINT_DIR, "");
        // Failures are bounded: a job that keeps failing (a broker gone for good) stops and says
        // so, rather than restarting forever in silence.
        d.put(MAX_RESTARTS, "10");
        d.put(RESTART_WINDOW, "10m");
        d.put(KAFKA_TIMEOUT, "30s");
        return java.util.Collections.unmodifiableMap(d);
    }

    /** A duration option, read as every isowatch duration is ({@link Durations}). */
    static Duration duration(String key, String text) {
        return Durations.parse("option " + key, text);
    }

    /** The checker's options, as {@code check} reads the same flags. */
    public CheckerOptions checkerOptions() {
        return checker;
    }

    /** The models checked (empty for none). */
    public Set<ConsistencyModel> consistencyModels() {
        return checker.consistencyModels();
    }

    /** Where alerts link to, from {@code ui-base-url}; null when no console is configured. */
    public ConsoleLink consoleLink() {
        return ConsoleLink.ofNullable(uiBaseUrl);
    }

    /**
     * The checkpoint directory as the URI Flink takes: a URI as given, a plain path made absolute
     * ({@code file:///...}); empty when none is set.
     */
    public String checkpointUri() {
        if (checkpointDir.isEmpty() || checkpointDir.contains("://")) {
            return checkpointDir;
        }
        return java.nio.file.Path.of(checkpointDir).toAbsolutePath().normalize().toUri().toString();
    }

    /** list-append or rw-register. */
    public Workload workload() {
        return checker.workload();
    }

    /**
     * Parses {@code --key value} pairs, as a Flink job's program arguments are written; a key
     * may also be given as {@code --key=value}.
     *
     * @throws IllegalArgumentException for an argument that is not an option, or a missing value
     */
    public static JobOptions fromArgs(String... args) {
        Map<String, String> raw = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--") || a.length() == 2) {
                throw new IllegalArgumentException("argument " + (i + 1) + " \"" + a
                        + "\" is not an option; write --key value, e.g. --bootstrap-servers kafka:9092");
            }
            String key = a.substring(2);
            int eq = key.indexOf('=');
            if (eq >= 0) {
                raw.put(key.substring(0, eq), key.substring(eq + 1));
            } else if (i + 1 < args.length) {
                raw.put(key, args[++i]);
            } else {
                throw new IllegalArgumentException("option --" + key + " needs a value");
            }
        }
        return parse(raw);
    }

    private static int integer(String key, String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + key + ": expected an integer, got \"" + text + "\"");
        }
    }

    private static void requireText(String value, String key) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("option " + key + " must not be empty");
        }
    }

    private static void requireOneOf(String value, String key, List<String> allowed) {
        if (!allowed.contains(value)) {
            throw new IllegalArgumentException("option " + key + ": expected one of " + allowed + ", got \"" + value + "\"");
        }
    }

    private static void requireNonNegative(Duration d, String key) {
        Objects.requireNonNull(d, key);
        if (d.isNegative()) {
            throw new IllegalArgumentException("option " + key + " must not be negative, got " + d);
        }
    }
}
