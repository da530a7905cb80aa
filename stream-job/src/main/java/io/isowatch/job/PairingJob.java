package io.isowatch.job;

import io.isowatch.history.HistoryEvent;
import io.isowatch.job.operators.EventTime;
import io.isowatch.job.operators.PairCompletionsFunction;
import io.isowatch.job.operators.ProcessKeySelector;
import io.isowatch.job.operators.SplitDeadLettersFunction;
import io.isowatch.job.serde.HistoryRecordDeserializer;
import io.isowatch.job.serde.JobTypes;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Either;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

import java.util.Objects;

/**
 * Stage 1 of the checker job, wiring only: source → split off malformed records → key by
 * (agent, process) → {@link PairCompletionsFunction} → completed-transaction sink, with dead
 * letters (malformed records and protocol faults) and late events to their own sinks. The later
 * stages (per-key traces, the dependency graph, findings) attach to the completed-transaction
 * stream in a later version; this class then becomes {@code CheckerJob}.
 *
 * <p>The constructor takes the source and the sinks, so tests pass bounded ones and production
 * passes {@link #kafkaSource(JobOptions)}.
 */
public final class PairingJob {

    private final JobOptions options;
    private final Source<Either<DeadLetter, HistoryEvent>, ?, ?> source;
    private final Sink<CompletedTxn> completedSink;
    private final Sink<DeadLetter> deadLetterSink;
    private final Sink<HistoryEvent> lateEventSink;

    public PairingJob(JobOptions options,
                      Source<Either<DeadLetter, HistoryEvent>, ?, ?> source,
                      Sink<CompletedTxn> completedSink,
                      Sink<DeadLetter> deadLetterSink,
                      Sink<HistoryEvent> lateEventSink) {
        this.options = Objects.requireNonNull(options, "options");
        this.source = Objects.requireNonNull(source, "source");
        this.completedSink = Objects.requireNonNull(completedSink, "completedSink");
        this.deadLetterSink = Objects.requireNonNull(deadLetterSink, "deadLetterSink");
        this.lateEventSink = Objects.requireNonNull(lateEventSink, "lateEventSink");
    }

    /**
     * The Flink configuration the job needs: Kryo fallback off ({@code pipeline.generic-types:
     * false}), the state backend and checkpointing of the options. Pass it to
     * {@link StreamExecutionEnvironment#getExecutionEnvironment(Configuration)}.
     */
    public static Configuration flinkConfiguration(JobOptions options) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(StateBackendOptions.STATE_BACKEND, options.stateBackend());
        if (!options.checkpointInterval().isZero()) {
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, options.checkpointInterval());
        }
        return conf;
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

        SingleOutputStreamOperator<CompletedTxn> completed = events
                .keyBy(new ProcessKeySelector(), JobTypes.PROCESS_KEY)
                .process(new PairCompletionsFunction(options.dedupeRetention()), JobTypes.COMPLETED_TXN)
                .name(OperatorIds.PAIR_COMPLETIONS_NAME)
                .uid(OperatorIds.PAIR_COMPLETIONS_UID);

        completed.sinkTo(completedSink)
                .name(OperatorIds.COMPLETED_SINK_NAME)
                .uid(OperatorIds.COMPLETED_SINK_UID);

        DataStream<DeadLetter> deadLetters = events.getSideOutput(SplitDeadLettersFunction.DEAD_LETTERS)
                .union(completed.getSideOutput(PairCompletionsFunction.DEAD_LETTERS));
        deadLetters.sinkTo(deadLetterSink)
                .name(OperatorIds.DEAD_LETTER_SINK_NAME)
                .uid(OperatorIds.DEAD_LETTER_SINK_UID);

        completed.getSideOutput(PairCompletionsFunction.LATE_EVENTS)
                .sinkTo(lateEventSink)
                .name(OperatorIds.LATE_EVENTS_SINK_NAME)
                .uid(OperatorIds.LATE_EVENTS_SINK_UID);
    }

    /** Builds the job on {@code env} and runs it until the source ends (forever for Kafka). */
    public JobExecutionResult execute(StreamExecutionEnvironment env, String jobName) throws Exception {
        build(env);
        return env.execute(jobName);
    }
}
