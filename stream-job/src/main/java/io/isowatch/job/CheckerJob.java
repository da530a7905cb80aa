package io.isowatch.job;

import io.isowatch.checker.CheckerOptions;
import io.isowatch.history.HistoryEvent;
import io.isowatch.job.operators.AgentHistoryKey;
import io.isowatch.job.operators.CheckTransactionsFunction;
import io.isowatch.job.operators.EventTime;
import io.isowatch.job.operators.SplitDeadLettersFunction;

import io.isowatch.job.serde.HistoryRecordDeserializer;
import io.isowatch.job.serde.JobTypes;
import io.isowatch.job.serde.KafkaRecords;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.ConsoleLink;
import io.isowatch.sinks.webhook.AlertmanagerSinkOptions;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.state.rocksdb.RocksDBConfigurableOptions;
import org.apache.flink.state.rocksdb.RocksDBNativeMetricOptions;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Either;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

import org.rocksdb.CompressionType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The checker job, wiring only: source → split off malformed records → key by history (agent)
 * → {@link CheckTransactionsFunction} (de-duplicate, order, hold processes to the protocol,
 * then traces, dependency graph, cycles, findings) → alert sinks. Dead letters of every stage,
 * and late events, go to one dead-letter sink.
 *
 * <p>The constructor takes the source and the sinks, so tests pass bounded ones and production
 * passes {@link #kafkaSource(JobOptions)} and {@link #kafkaSinks(JobOptions)}; {@link #main}
 * runs it that way, on whatever cluster the environment gives (a Flink cluster when submitted
 * as a jar, a local one otherwise).
 */
public final class CheckerJob {

    private static final Logger LOG = LoggerFactory.getLogger(CheckerJob.class);
    /** Pause before a restart: long enough for a broker that just went away to come back. */
    private static final Duration RESTART_DELAY = Duration.ofSeconds(5);

    private final JobOptions options;
    private final Source<Either<DeadLetter, HistoryEvent>, ?, ?> source;
    private final JobSinks sinks;

    /**
     * @param options the job's options, what to check among them ({@link JobOptions#checker()};
     *                replay builds them with check's own, see {@link JobOptions#parse(java.util.Map, CheckerOptions)})
     */
    public CheckerJob(JobOptions options, Source<Either<DeadLetter, HistoryEvent>, ?, ?> source, JobSinks sinks) {
        this.options = Objects.requireNonNull(options, "options");
        this.source = Objects.requireNonNull(source, "source");
        this.sinks = Objects.requireNonNull(sinks, "sinks");
    }

    /**
     * Runs the job on Kafka: {@code --bootstrap-servers kafka:9092 [--history-topic …]
     * [--alerts-topic …] [--alerts-webhook http://alertmanager:9093] …}, every key of
     * {@link JobOptions}.
     */
    public static void main(String[] args) throws Exception {
        JobOptions options = JobOptions.fromArgs(args);
        LOG.info("isowatch checker job starting with {}", options.asMap());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flinkConfiguration(options));
        new CheckerJob(options, kafkaSource(options), kafkaSinks(options))
                .execute(env, "isowatch checker");
    }

    /**
     * The Flink configuration the job needs: Kryo fallback off ({@code pipeline.generic-types:
     * false}), the state backend and checkpointing of the options, timers on the heap (the
     * checker registers one per distinct event time; RocksDB timers would cost a write each),
     * RocksDB's size metrics per state (keys, live data, SST files) and its compression
     * ({@code rocksdb-compression}), incremental checkpoints to {@code checkpoint-dir} retained on
     * cancellation, and restarts bounded by {@code max-restarts} per {@code restart-window}.
     * Pass it to {@link StreamExecutionEnvironment#getExecutionEnvironment(Configuration)}.
     */
    public static Configuration flinkConfiguration(JobOptions options) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(StateBackendOptions.STATE_BACKEND, options.stateBackend());
        conf.set(RocksDBOptions.TIMER_SERVICE_FACTORY, EmbeddedRocksDBStateBackend.PriorityQueueStateType.HEAP);
        // The size of each state (RocksDB column family), labelled column_family in Prometheus.
        conf.set(RocksDBNativeMetricOptions.ESTIMATE_NUM_KEYS, true);
        conf.set(RocksDBNativeMetricOptions.ESTIMATE_LIVE_DATA_SIZE, true);
        conf.set(RocksDBNativeMetricOptions.MONITOR_TOTAL_SST_FILES_SIZE, true);
        conf.set(RocksDBNativeMetricOptions.COLUMN_FAMILY_AS_VARIABLE, true);
        conf.set(RocksDBConfigurableOptions.COMPRESSION_PER_LEVEL, List.of(compression(options.rocksdbCompression())));
        if (!options.checkpointInterval().isZero()) {
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, options.checkpointInterval());
        }
        if (!options.checkpointUri().isEmpty()) {
            // Without a directory Flink keeps checkpoints in the JobManager's memory, and any state
            // over 5 MB fails every checkpoint (and every stop with a savepoint).
            conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, options.checkpointUri());
        }
        // The state is mostly checked batches, written once: an incremental checkpoint uploads
        // only what changed since the last one, so its cost follows the rate, not the state size.
        conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
        // Kept when the job is cancelled (Ctrl-C), so the next start can resume from it.
        conf.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        // Keyed by history, every task feeds every checker task: the job is one failover region
        // anyway. Restarting it whole makes a restart show in the job's status (RESTARTING, in the
        // web UI, the REST API and the Kubernetes operator); a region restart leaves it RUNNING.
        conf.set(JobManagerOptions.EXECUTION_FAILOVER_STRATEGY, "full");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, options.maxRestarts() == 0 ? "none" : "failure-rate");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_MAX_FAILURES_PER_INTERVAL, options.maxRestarts());
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_FAILURE_RATE_INTERVAL, options.restartWindow());
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_DELAY, RESTART_DELAY);
        return conf;
    }

    /** RocksDB's name for a {@code rocksdb-compression} value. */
    static CompressionType compression(String name) {
        return switch (name) {
            case "snappy" -> CompressionType.SNAPPY_COMPRESSION;
            case "lz4" -> CompressionType.LZ4_COMPRESSION;
            case "zstd" -> CompressionType.ZSTD_COMPRESSION;
            default -> CompressionType.NO_COMPRESSION;
        };
    }

    /** The production source: the agents' history topic, read forever. */
    public static KafkaSource<Either<DeadLetter, HistoryEvent>> kafkaSource(JobOptions options) {
        return kafkaSourceBuilder(options).build();
    }
    /**
     * The production source's builder, for callers that adjust it (a replay or a test bounds it
     * with {@code setBounded(OffsetsInitializer.latest())}).
     */
    // The connector (5.0.0-2.2) takes only Kafka's OffsetResetStrategy, deprecated in kafka-clients 4.x.
    @SuppressWarnings("deprecation")
    public static KafkaSourceBuilder<Either<DeadLetter, HistoryEvent>> kafkaSourceBuilder(JobOptions options) {
        if (options.bootstrapServers().isEmpty()) {
            throw new IllegalArgumentException("option " + JobOptions.BOOTSTRAP_SERVERS
                    + " is required to read from Kafka, e.g. bootstrap-servers=localhost:9092");
        }
        OffsetsInitializer offsets = switch (options.startingOffsets()) {
            case "latest" -> OffsetsInitializer.latest();
            case "committed" -> OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
            default -> OffsetsInitializer.earliest();
        };
        return KafkaSource.<Either<DeadLetter, HistoryEvent>>builder()
                .setBootstrapServers(options.bootstrapServers())
                .setTopics(options.historyTopic())
                .setGroupId(options.groupId())
                .setStartingOffsets(offsets)
                .setDeserializer(new HistoryRecordDeserializer());
    }

    /**
     * The production sinks: alerts to the alerts topic (and to Alertmanager when
     * {@code alerts-webhook} is set), dead letters to the dead-letter topic; both at least once
     * (alerts carry stable ids, so a repeat after a restore is harmless). With {@code ui-base-url}
     * set, every alert links to its finding's page in the console.
     */
    public static JobSinks kafkaSinks(JobOptions options) {
        ConsoleLink console = options.consoleLink();
        List<Sink<Alert>> alerts = new ArrayList<>();
        alerts.add(KafkaSink.<Alert>builder()
                .setBootstrapServers(options.bootstrapServers())
                .setRecordSerializer(KafkaRecords.alerts(options.alertsTopic(), console))
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .build());
        if (!options.alertsWebhook().isEmpty()) {
            URI url = URI.create(options.alertsWebhook());
            alerts.add(new FlinkAlertSink(() -> AlertmanagerSinkOptions.of(url).toBuilder().console(console).build()
                    .open()));
        }
        Sink<DeadLetter> deadLetters = KafkaSink.<DeadLetter>builder()
                .setBootstrapServers(options.bootstrapServers())
                .setRecordSerializer(KafkaRecords.deadLetters(options.deadLetterTopic()))
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .build();
        return JobSinks.of(alerts, deadLetters);
    }

    /** Adds the job's operators to {@code env} (which should carry {@link #flinkConfiguration}). */
    public void build(StreamExecutionEnvironment env) {
        env.configure(flinkConfiguration(options));
        env.setParallelism(options.parallelism());
        env.setMaxParallelism(options.maxParallelism());

        SingleOutputStreamOperator<HistoryEvent> events = env
                .fromSource(source, EventTime.watermarks(options.maxOutOfOrderness(), options.idleTimeout()),
                        OperatorIds.SOURCE_NAME, JobTypes.DECODED)
                .uid(OperatorIds.SOURCE_UID)
                .process(new SplitDeadLettersFunction(), JobTypes.HISTORY_EVENT)
                .name(OperatorIds.SPLIT_DEAD_LETTERS_NAME)
                .uid(OperatorIds.SPLIT_DEAD_LETTERS_UID);

        // A history's graph is its serial point (docs/design.md): one task sees all of one agent's
        // events, and keyed by history, not by process, only the agent's whole numbering shows
        // that nothing is missing before an event, which lets it in without waiting for the
        // watermark (decisions 0006, 0010).
        CheckTransactionsFunction checker = new CheckTransactionsFunction(options.checker(), options.historyRetention(),
                options.dedupeRetention(), options.idleTimeout());
        if (sinks.checkedEvents() != null) {
            checker.emittingCheckedEvents();
        }
        SingleOutputStreamOperator<Alert> alerts = events
                .keyBy(new AgentHistoryKey(), Types.STRING)
                .process(checker, JobTypes.ALERT)
                .name(OperatorIds.CHECK_TRANSACTIONS_NAME)
                .uid(OperatorIds.CHECK_TRANSACTIONS_UID);
        if (sinks.checkedEvents() != null) {
            alerts.getSideOutput(CheckTransactionsFunction.CHECKED_EVENTS).sinkTo(sinks.checkedEvents())
                    .name(OperatorIds.CHECKED_EVENTS_SINK_NAME)
                    .uid(OperatorIds.CHECKED_EVENTS_SINK_UID);
        }
        for (int i = 0; i < sinks.alerts().size(); i++) {
            alerts.sinkTo(sinks.alerts().get(i))
                    .name(OperatorIds.ALERT_SINK_NAME + " " + (i + 1))
                    .uid(OperatorIds.ALERT_SINK_UID + "-" + (i + 1));
        }
        if (sinks.verdicts() != null) {
            alerts.getSideOutput(CheckTransactionsFunction.VERDICTS).sinkTo(sinks.verdicts())
                    .name(OperatorIds.VERDICT_SINK_NAME)
                    .uid(OperatorIds.VERDICT_SINK_UID);
        }

        DataStream<DeadLetter> deadLetters = events.getSideOutput(SplitDeadLettersFunction.DEAD_LETTERS)
                .union(alerts.getSideOutput(CheckTransactionsFunction.DEAD_LETTERS),
                        alerts.getSideOutput(CheckTransactionsFunction.LATE_EVENTS)
                                .map(CheckerJob::lateEvent, JobTypes.DEAD_LETTER)
                                .name(OperatorIds.LATE_EVENTS_NAME)
                                .uid(OperatorIds.LATE_EVENTS_UID));
        deadLetters.sinkTo(sinks.deadLetters())
                .name(OperatorIds.DEAD_LETTER_SINK_NAME)
                .uid(OperatorIds.DEAD_LETTER_SINK_UID);
    }

    private static DeadLetter lateEvent(HistoryEvent e) {
        return DeadLetter.of(DeadLetter.Kind.LATE_EVENT, "event seq " + e.sequence() + " of agent " + e.source()
                + " (time " + EventTime.of(e) + " ms) arrived behind the watermark, later than max-out-of-orderness"
                + " allows; it was not checked", e);
    }

    /** Builds the job on {@code env} and runs it until the source ends (forever for Kafka). */
    public JobExecutionResult execute(StreamExecutionEnvironment env, String jobName) throws Exception {
        build(env);
        return env.execute(jobName);
    }
}
