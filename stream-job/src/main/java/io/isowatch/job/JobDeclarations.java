package io.isowatch.job;

import io.isowatch.checker.CheckerDeclarations;
import io.isowatch.config.OptionDeclaration;
import io.isowatch.config.Topics;
import io.isowatch.config.ValueType;
import io.isowatch.config.ValueTypes;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The stream job's options, declared once: {@link JobOptions} parses them, {@code isowatch job}
 * passes them through, docs/configuration.md's table of job options is generated from them and
 * the Helm chart's values are tested against them. The checker's own keys are
 * {@link CheckerDeclarations}' (all but {@code reorder-window}: the job orders events itself).
 * Every duration takes a unit; a bare number is seconds.
 */
public final class JobDeclarations {

    private static final ValueType<Duration> DURATION = ValueTypes.duration(ChronoUnit.SECONDS);

    public static final OptionDeclaration<String> BOOTSTRAP_SERVERS = OptionDeclaration
            .key("bootstrap-servers", ValueTypes.text("host:port, comma-separated"))
            .doc("Kafka bootstrap servers of the history topic")
            .job().chart("kafka.bootstrapServers", "kafka-kafka-bootstrap.kafka.svc:9092").build();

    public static final OptionDeclaration<String> HISTORY_TOPIC = OptionDeclaration
            .key("history-topic", ValueTypes.text("topic name")).defaultValue(Topics.HISTORY)
            .doc("topic the agents ship to")
            .job().chart("kafka.topics.history").build();

    public static final OptionDeclaration<String> GROUP_ID = OptionDeclaration
            .key("group-id", ValueTypes.text("consumer group")).defaultValue("isowatch-job")
            .doc("Kafka consumer group (offsets live in checkpoints)")
            .job().chart("job.options.groupId").build();

    public static final OptionDeclaration<String> STARTING_OFFSETS = OptionDeclaration
            .key("starting-offsets", ValueTypes.oneOf("earliest", "latest", "committed")).defaultValue("earliest")
            .doc("where a job without state starts reading (`committed` falls back to earliest); a history the job "
                    + "meets after its start (first sequence above 0) is checked as cut there, so reads of what was "
                    + "written before are not taken for garbage reads")
            .job().chart("job.options.startingOffsets").build();

    public static final OptionDeclaration<Duration> MAX_OUT_OF_ORDERNESS = OptionDeclaration
            .key("max-out-of-orderness", DURATION).defaultValue(Duration.ofSeconds(5))
            .doc("how far behind the newest event an event may arrive; later ones go to `late-events`")
            .job().chart("job.options.maxOutOfOrderness").build();

    public static final OptionDeclaration<Duration> IDLE_TIMEOUT = OptionDeclaration
            .key("idle-timeout", DURATION).defaultValue(Duration.ofSeconds(30))
            .doc("a source partition without events stops holding back the watermark after this, and an agent of a "
                    + "history several agents record stops holding back the others once silent this long of the "
                    + "history's event time; `0` disables")
            .job().chart("job.options.idleTimeout").build();

    public static final OptionDeclaration<Duration> DEDUPE_RETENTION = OptionDeclaration
            .key("dedupe-retention", DURATION).defaultValue(Duration.ofSeconds(60))
            .doc("event time a process's de-duplication progress is kept after its last event")
            .job().chart("job.options.dedupeRetention").build();

    public static final OptionDeclaration<Integer> PARALLELISM = OptionDeclaration
            .key("parallelism", ValueTypes.integer(1, Integer.MAX_VALUE)).defaultValue(1)
            .doc("operator parallelism")
            .job().chart("job.parallelism", "2").build();

    public static final OptionDeclaration<Integer> MAX_PARALLELISM = OptionDeclaration
            .key("max-parallelism", ValueTypes.integer(1, 32768)).defaultValue(128)
            .doc("key groups (fixed once the job has state), at least `parallelism`")
            .job().chart("job.maxParallelism").build();

    public static final OptionDeclaration<Duration> CHECKPOINT_INTERVAL = OptionDeclaration
            .key("checkpoint-interval", DURATION).defaultValue(Duration.ofSeconds(10))
            .doc("checkpoint period; `0` disables checkpointing (tests only)")
            .job().chart("job.checkpointing.interval").build();

    public static final OptionDeclaration<String> CHECKPOINT_DIR = OptionDeclaration
            .key("checkpoint-dir", ValueTypes.text("path or URI"))
            .doc("durable checkpoint storage: a path or a URI (`file:///var/lib/isowatch/checkpoints`, "
                    + "`s3://bucket/checkpoints`); none: the Flink cluster's own `execution.checkpointing.dir` (the "
                    + "chart sets it; `isowatch job` uses `isowatch-checkpoints/`). Checkpoints are incremental and "
                    + "kept when the job is cancelled, so a restart resumes from the latest")
            .job().build();

    public static final OptionDeclaration<Integer> MAX_RESTARTS = OptionDeclaration
            .key("max-restarts", ValueTypes.integer(0, Integer.MAX_VALUE)).defaultValue(10)
            .doc("failures the job restarts from (its latest checkpoint, after 5 s) within one `restart-window`; one "
                    + "more fails it for good. `0`: no restart")
            .job().build();

    public static final OptionDeclaration<Duration> RESTART_WINDOW = OptionDeclaration
            .key("restart-window", DURATION).defaultValue(Duration.ofMinutes(10))
            .doc("the window `max-restarts` counts failures in")
            .job().build();

    public static final OptionDeclaration<Duration> KAFKA_TIMEOUT = OptionDeclaration
            .key("kafka-timeout", DURATION).defaultValue(Duration.ofSeconds(30))
            .doc("how long `isowatch job`'s start-up check waits for the brokers and the topics")
            .job().build();

    public static final OptionDeclaration<String> STATE_BACKEND = OptionDeclaration
            .key("state-backend", ValueTypes.oneOf("rocksdb", "hashmap")).defaultValue("rocksdb")
            .doc("where keyed state lives: RocksDB on disk, or the heap")
            .job().chart("job.stateBackend").build();

    public static final OptionDeclaration<String> ALERTS_TOPIC = OptionDeclaration
            .key("alerts-topic", ValueTypes.text("topic name")).defaultValue(Topics.ALERTS)
            .doc("alerts, one JSON finding per record, key = its stable id")
            .job().chart("kafka.topics.alerts").build();

    public static final OptionDeclaration<String> DEAD_LETTER_TOPIC = OptionDeclaration
            .key("dead-letter-topic", ValueTypes.text("topic name")).defaultValue(Topics.DEAD_LETTERS)
            .doc("malformed records, protocol faults, rejected and late events, as JSON")
            .job().chart("kafka.topics.deadLetters").build();

    public static final OptionDeclaration<String> ALERTS_WEBHOOK = OptionDeclaration
            .key("alerts-webhook", ValueTypes.text("URL"))
            .doc("Alertmanager base URL; alerts are POSTed to `/api/v2/alerts` as well")
            .job().chart("job.options.alertsWebhook").build();

    public static final OptionDeclaration<String> UI_BASE_URL = OptionDeclaration
            .key("ui-base-url", ValueTypes.text("URL"))
            .doc("the findings console's address as readers' browsers reach it (`http(s)://HOST[:PORT][/PATH]`); "
                    + "every alert then carries its finding's page, `<ui-base-url>/findings/<id>`: `link` in the "
                    + "alerts topic's JSON, annotation `finding_url` (and `generatorURL`) in Alertmanager")
            .job().chart("ui.baseUrl").build();

    public static final OptionDeclaration<Duration> HISTORY_RETENTION = OptionDeclaration
            .key("history-retention", DURATION).defaultValue(Duration.ofSeconds(60))
            .doc("event time a history's transactions stay checkable: every half retention the checker forgets "
                    + "what was invoked more than a retention ago (decision 0013), so it knows one to 1.5 retentions "
                    + "of the history and state and heap stay bounded; an anomaly spanning more than that may be "
                    + "missed, never invented; rw-register's version-order assumptions (`wfr-keys` and the rest) "
                    + "apply only until it first forgets; `0` keeps everything (exactly `check`'s answers)")
            .job().build();

    /**
     * Nearly all the job's RocksDB data is checked-batches, written once and read only on a
     * restore: compressing it cost ~5% of the CPU at 50,000 txn/s (docs/benchmarks-archive.md), hence none.
     */
    public static final OptionDeclaration<String> ROCKSDB_COMPRESSION = OptionDeclaration
            .key("rocksdb-compression", ValueTypes.oneOf("none", "snappy", "lz4", "zstd")).defaultValue("none")
            .doc("compression of RocksDB's files (`snappy` is Flink's default); see below")
            .job().chart("job.options.rocksdbCompression").build();

    /** Every job option, the checker's among them, in the docs' order. */
    public static final List<OptionDeclaration<?>> ALL = List.of(BOOTSTRAP_SERVERS, HISTORY_TOPIC, GROUP_ID,
            STARTING_OFFSETS, MAX_OUT_OF_ORDERNESS, IDLE_TIMEOUT, DEDUPE_RETENTION, PARALLELISM, MAX_PARALLELISM,
            CHECKPOINT_INTERVAL, CHECKPOINT_DIR, MAX_RESTARTS, RESTART_WINDOW, KAFKA_TIMEOUT, STATE_BACKEND,
            ALERTS_TOPIC, DEAD_LETTER_TOPIC, ALERTS_WEBHOOK, UI_BASE_URL,
            CheckerDeclarations.CONSISTENCY_MODELS, CheckerDeclarations.ANOMALIES, CheckerDeclarations.WORKLOAD,
            CheckerDeclarations.CYCLE_SEARCH_BUDGET, CheckerDeclarations.CYCLE_SEARCH_TIMEOUT,
            CheckerDeclarations.WFR_KEYS, CheckerDeclarations.SEQUENTIAL_KEYS, CheckerDeclarations.LINEARIZABLE_KEYS,
            CheckerDeclarations.CLOCK_UNCERTAINTY, HISTORY_RETENTION, ROCKSDB_COMPRESSION);

    private JobDeclarations() {
    }
}
