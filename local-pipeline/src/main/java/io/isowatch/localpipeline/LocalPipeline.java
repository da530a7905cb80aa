package io.isowatch.localpipeline;

import io.isowatch.checker.CheckerOptions;
import io.isowatch.config.Topics;
import io.isowatch.job.CheckerJob;
import io.isowatch.job.JobOptions;
import io.isowatch.job.JobSinks;
import io.isowatch.localkafka.InJvmKafka;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The checker's whole pipeline on one machine: a KRaft broker in this JVM holding the history
 * topic, and the checker job reading it on a local Flink cluster in this JVM. {@code isowatch demo},
 * {@code isowatch replay} and the stream benchmark build their local job here and nowhere else;
 * each names only the job options its run needs beyond this pipeline's broker, topic and
 * parallelism (its consumer group, how far out of order events may arrive, its checkpoints).
 *
 * <p>Everything listens on the one address the pipeline is started with: the broker's and the
 * controller's listeners, Flink's REST endpoint and blob server, and the metrics reporter.
 *
 * <p>Not thread-safe; one caller starts it, runs its job and closes it.
 */
public final class LocalPipeline implements AutoCloseable {

    /** The history topic's partitions, and so the job's parallelism, of demo and replay. */
    public static final int PARTITIONS = 2;

    private final InJvmKafka kafka;
    private final InetAddress bind;
    private final String topic;
    private final int partitions;

    private LocalPipeline(InJvmKafka kafka, InetAddress bind, String topic, int partitions) {
        this.kafka = kafka;
        this.bind = bind;
        this.topic = topic;
        this.partitions = partitions;
    }

    /** Starts the broker on {@code bind} and creates the history topic with {@code partitions}. */
    public static LocalPipeline start(InetAddress bind, int partitions) {
        return start(bind, partitions, Map.of());
    }

    /**
     * Starts the broker on {@code bind} and creates the history topic ({@link Topics#HISTORY})
     * with {@code partitions} and the given topic configuration (e.g. {@code retention.ms}).
     *
     * @throws IllegalStateException when the broker does not start or the topic cannot be made
     */
    public static LocalPipeline start(InetAddress bind, int partitions, Map<String, String> topicConfig) {
        Objects.requireNonNull(bind, "bind");
        if (partitions <= 0) {
            throw new IllegalArgumentException("partitions must be positive, got " + partitions);
        }
        String topic = Topics.HISTORY;
        InJvmKafka kafka = startQuietly(bind);
        try {
            kafka.createTopic(topic, partitions, topicConfig);
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
        return new LocalPipeline(kafka, bind, topic, partitions);
    }

    /**
     * Kafka's test kit prints two lines (bootstrap metadata, formatting) to standard output while
     * it formats its log directory; they are dropped, so that a command's own output (replay's
     * JSON, the benchmark's table) stays clean. Synchronized because standard output is the JVM's.
     */
    private static synchronized InJvmKafka startQuietly(InetAddress bind) {
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try {
            return InJvmKafka.startDedicated(bind);
        } finally {
            System.setOut(stdout);
        }
    }

    /** The broker, e.g. to send records to the topic directly. */
    public InJvmKafka kafka() {
        return kafka;
    }

    /** {@code HOST:PORT} of the broker. */
    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** The history topic the job reads. */
    public String topic() {
        return topic;
    }

    /**
     * The job's options for this pipeline: its broker and topic, one task per partition, and then
     * {@code settings} (keys of {@link JobOptions}; a parallelism given there wins).
     *
     * @throws IllegalArgumentException as {@link JobOptions#parse}, for an unknown key or a bad value
     */
    public JobOptions jobOptions(Map<String, String> settings) {
        return JobOptions.parse(raw(settings));
    }

    /** As {@link #jobOptions(Map)}, with the checker's options already parsed ({@code check}'s flags, say). */
    public JobOptions jobOptions(Map<String, String> settings, CheckerOptions checks) {
        return JobOptions.parse(raw(settings), checks);
    }

    private Map<String, String> raw(Map<String, String> settings) {
        Map<String, String> raw = new LinkedHashMap<>();
        raw.put(JobOptions.BOOTSTRAP_SERVERS, kafka.bootstrapServers());
        raw.put(JobOptions.HISTORY_TOPIC, topic);
        raw.put(JobOptions.PARALLELISM, Integer.toString(partitions));
        raw.putAll(settings);
        return raw;
    }

    /**
     * The local Flink cluster to run the job of {@code options} on, every port on this pipeline's
     * address; a Prometheus reporter on {@code metricsPort} unless it is negative; and
     * {@code flinkSettings} last, so they win over the job's own (a benchmark's RocksDB tuning).
     */
    public StreamExecutionEnvironment environment(JobOptions options, int metricsPort, Configuration flinkSettings) {
        return LocalFlink.environment(options, metricsPort, bind, flinkSettings);
    }

    /**
     * The checker job on this pipeline's topic: read forever, or when {@code bounded} up to the
     * end the topic has when the job starts (replay publishes everything first).
     */
    public CheckerJob checkerJob(JobOptions options, JobSinks sinks, boolean bounded) {
        return new CheckerJob(options, bounded
                ? CheckerJob.kafkaSourceBuilder(options).setBounded(OffsetsInitializer.latest()).build()
                : CheckerJob.kafkaSource(options), sinks);
    }

    /** Stops the broker and deletes its data; the job must have ended. */
    @Override
    public void close() {
        kafka.close();
    }
}
