package io.isowatch.job;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.CheckerOptionsReader;
import io.isowatch.checker.Workload;
import io.isowatch.config.Durations;
import io.isowatch.config.Topics;
import io.isowatch.config.OptionDeclaration;
import io.isowatch.sinks.ConsoleLink;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The job's options, parsed once at start-up from {@code key -> value} strings. Each key is
 * declared once in {@link JobDeclarations} (type, unit, default, doc; docs/configuration.md's
 * table is generated from there). Unknown keys are rejected by name, so a typo fails at once
 * rather than being silently ignored. Durations take a unit ({@code 500ms}, {@code 5s},
 * {@code 2m}, {@code 1h}) or ISO-8601 ({@code PT5S}); a bare number is seconds.
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

    public static final String BOOTSTRAP_SERVERS = JobDeclarations.BOOTSTRAP_SERVERS.key();
    public static final String HISTORY_TOPIC = JobDeclarations.HISTORY_TOPIC.key();
    public static final String GROUP_ID = JobDeclarations.GROUP_ID.key();
    public static final String STARTING_OFFSETS = JobDeclarations.STARTING_OFFSETS.key();
    public static final String MAX_OUT_OF_ORDERNESS = JobDeclarations.MAX_OUT_OF_ORDERNESS.key();
    public static final String IDLE_TIMEOUT = JobDeclarations.IDLE_TIMEOUT.key();
    public static final String DEDUPE_RETENTION = JobDeclarations.DEDUPE_RETENTION.key();
    public static final String PARALLELISM = JobDeclarations.PARALLELISM.key();
    public static final String MAX_PARALLELISM = JobDeclarations.MAX_PARALLELISM.key();
    public static final String CHECKPOINT_INTERVAL = JobDeclarations.CHECKPOINT_INTERVAL.key();
    public static final String STATE_BACKEND = JobDeclarations.STATE_BACKEND.key();
    public static final String ALERTS_TOPIC = JobDeclarations.ALERTS_TOPIC.key();
    public static final String DEAD_LETTER_TOPIC = JobDeclarations.DEAD_LETTER_TOPIC.key();
    public static final String ALERTS_WEBHOOK = JobDeclarations.ALERTS_WEBHOOK.key();
    public static final String CONSISTENCY_MODELS = CheckerOptionsReader.CONSISTENCY_MODELS;
    public static final String WORKLOAD = CheckerOptionsReader.WORKLOAD;
    public static final String HISTORY_RETENTION = JobDeclarations.HISTORY_RETENTION.key();
    public static final String ROCKSDB_COMPRESSION = JobDeclarations.ROCKSDB_COMPRESSION.key();
    public static final String UI_BASE_URL = JobDeclarations.UI_BASE_URL.key();
    public static final String CHECKPOINT_DIR = JobDeclarations.CHECKPOINT_DIR.key();
    public static final String MAX_RESTARTS = JobDeclarations.MAX_RESTARTS.key();
    public static final String RESTART_WINDOW = JobDeclarations.RESTART_WINDOW.key();
    public static final String KAFKA_TIMEOUT = JobDeclarations.KAFKA_TIMEOUT.key();

    /** Every key, with its default ("" for none), in {@link JobDeclarations#ALL}'s order. */
    public static final Map<String, String> DEFAULTS = defaults();

    public JobOptions {
        Objects.requireNonNull(bootstrapServers, BOOTSTRAP_SERVERS);
        requireText(historyTopic, HISTORY_TOPIC);
        requireText(groupId, GROUP_ID);
        check(JobDeclarations.STARTING_OFFSETS, startingOffsets);
        requireNonNegative(maxOutOfOrderness, MAX_OUT_OF_ORDERNESS);
        requireNonNegative(idleTimeout, IDLE_TIMEOUT);
        requireNonNegative(dedupeRetention, DEDUPE_RETENTION);
        requireNonNegative(checkpointInterval, CHECKPOINT_INTERVAL);
        check(JobDeclarations.STATE_BACKEND, stateBackend);
        requireText(alertsTopic, ALERTS_TOPIC);
        requireText(deadLetterTopic, DEAD_LETTER_TOPIC);
        Objects.requireNonNull(alertsWebhook, ALERTS_WEBHOOK);
        Objects.requireNonNull(checker, "checker options");
        requireNonNegative(historyRetention, HISTORY_RETENTION);
        check(JobDeclarations.ROCKSDB_COMPRESSION, rocksdbCompression);
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
        return parse(raw, null);
    }

    /**
     * Parses the job's own options, with the checker's given typed: {@code replay} passes
     * {@code check}'s, its reorder window included, rather than writing them out as text.
     *
     * @param checker the checker's options; null to read them from {@code raw}
     * @throws IllegalArgumentException as {@link #parse(Map)}
     */
    public static JobOptions parse(Map<String, String> given, CheckerOptions checker) {
        Map<String, String> raw = OptionDeclaration.resolveAliases(given, JobDeclarations.ALL);
        TreeSet<String> unknown = new TreeSet<>(raw.keySet());
        unknown.removeAll(DEFAULTS.keySet());
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown job option(s) " + unknown + "; known options are "
                    + DEFAULTS.keySet());
        }
        Map<String, String> v = new LinkedHashMap<>(DEFAULTS);
        v.putAll(raw);
        return new JobOptions(
                get(JobDeclarations.BOOTSTRAP_SERVERS, v),
                get(JobDeclarations.HISTORY_TOPIC, v),
                get(JobDeclarations.GROUP_ID, v),
                get(JobDeclarations.STARTING_OFFSETS, v),
                get(JobDeclarations.MAX_OUT_OF_ORDERNESS, v),
                get(JobDeclarations.IDLE_TIMEOUT, v),
                get(JobDeclarations.DEDUPE_RETENTION, v),
                get(JobDeclarations.PARALLELISM, v),
                get(JobDeclarations.MAX_PARALLELISM, v),
                get(JobDeclarations.CHECKPOINT_INTERVAL, v),
                get(JobDeclarations.STATE_BACKEND, v),
                get(JobDeclarations.ALERTS_TOPIC, v),
                get(JobDeclarations.DEAD_LETTER_TOPIC, v),
                get(JobDeclarations.ALERTS_WEBHOOK, v),
                checker != null ? checker : CheckerOptionsReader.read(v, key -> "option " + key),
                get(JobDeclarations.HISTORY_RETENTION, v),
                get(JobDeclarations.ROCKSDB_COMPRESSION, v),
                get(JobDeclarations.UI_BASE_URL, v),
                get(JobDeclarations.CHECKPOINT_DIR, v),
                get(JobDeclarations.MAX_RESTARTS, v),
                get(JobDeclarations.RESTART_WINDOW, v),
                get(JobDeclarations.KAFKA_TIMEOUT, v));
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
        m.put(MAX_OUT_OF_ORDERNESS, Durations.format(maxOutOfOrderness));
        m.put(IDLE_TIMEOUT, Durations.format(idleTimeout));
        m.put(DEDUPE_RETENTION, Durations.format(dedupeRetention));
        m.put(PARALLELISM, Integer.toString(parallelism));
        m.put(MAX_PARALLELISM, Integer.toString(maxParallelism));
        m.put(CHECKPOINT_INTERVAL, Durations.format(checkpointInterval));
        m.put(STATE_BACKEND, stateBackend);
        m.put(ALERTS_TOPIC, alertsTopic);
        m.put(DEAD_LETTER_TOPIC, deadLetterTopic);
        m.put(ALERTS_WEBHOOK, alertsWebhook);
        m.putAll(CheckerOptionsReader.write(checker));
        m.remove(CheckerOptionsReader.REORDER_WINDOW);
        m.put(HISTORY_RETENTION, Durations.format(historyRetention));
        m.put(ROCKSDB_COMPRESSION, rocksdbCompression);
        m.put(UI_BASE_URL, uiBaseUrl);
        m.put(CHECKPOINT_DIR, checkpointDir);
        m.put(MAX_RESTARTS, Integer.toString(maxRestarts));
        m.put(RESTART_WINDOW, Durations.format(restartWindow));
        m.put(KAFKA_TIMEOUT, Durations.format(kafkaTimeout));
        return m;
    }

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        JobDeclarations.ALL.forEach(o -> d.put(o.key(), o.defaultText()));
        return java.util.Collections.unmodifiableMap(d);
    }

    private static <T> T get(OptionDeclaration<T> option, Map<String, String> values) {
        return option.parse("option " + option.key(), values.get(option.key()));
    }

    private static <T> void check(OptionDeclaration<T> option, T value) {
        option.type().check("option " + option.key(), value);
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

    private static void requireText(String value, String key) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("option " + key + " must not be empty");
        }
    }

    private static void requireNonNegative(Duration d, String key) {
        Objects.requireNonNull(d, key);
        if (d.isNegative()) {
            throw new IllegalArgumentException("option " + key + " must not be negative, got " + d);
        }
    }
}
