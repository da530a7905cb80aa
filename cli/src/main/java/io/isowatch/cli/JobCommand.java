package io.isowatch.cli;

import io.isowatch.agentcli.BindAddressFlag;
import io.isowatch.agentcli.ExitCodes;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptionsReader;
import io.isowatch.config.Durations;
import io.isowatch.job.CheckerJob;
import io.isowatch.job.JobOptions;
import io.isowatch.job.KafkaPreflight;
import io.isowatch.job.RetainedCheckpoints;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;

/**
 * {@code isowatch job}: the checker job as {@link CheckerJob#main} wires it (Kafka history topic
 * in; alerts topic, optional Alertmanager webhook and dead-letter topic out), on a local Flink
 * cluster inside this JVM, until interrupted. Every {@link JobOptions} key is an option
 * {@code --key value}; the options are generated from {@link JobOptions#DEFAULTS}, so a new key
 * appears here without a change.
 */
@Command(name = "job", mixinStandardHelpOptions = true, addMethodSubcommands = false, modelTransformer = JobCommand.Keys.class,
        description = {"Runs the checker job on a local Flink cluster against an existing Kafka, until Ctrl-C.",
                "Example: isowatch job --bootstrap-servers localhost:9092 --consistency-models serializable"})
final class JobCommand implements Callable<Integer> {

    /** The checkpoint directory of a local job given none, under the working directory. */
    static final String LOCAL_CHECKPOINTS = "isowatch-checkpoints";

    /** What each key means; a key missing here is still accepted, with its default only. */
    private static final Map<String, String> MEANINGS = Map.ofEntries(
            Map.entry(JobOptions.BOOTSTRAP_SERVERS, "Kafka brokers, HOST:PORT,... (required)."),
            Map.entry(JobOptions.HISTORY_TOPIC, "Topic the agents ship events to."),
            Map.entry(JobOptions.ALERTS_TOPIC, "Topic of the alerts, one JSON finding per record, keyed by its stable id."),
            Map.entry(JobOptions.DEAD_LETTER_TOPIC, "Topic of malformed records, protocol faults and late events."),
            Map.entry(JobOptions.ALERTS_WEBHOOK, "Alertmanager base URL; alerts are POSTed to /api/v2/alerts."),
            Map.entry(JobOptions.UI_BASE_URL, "The findings console's address as readers reach it (isowatch ui); "
                    + "alerts then link to their finding's page there."),
            Map.entry(JobOptions.GROUP_ID, "Kafka consumer group."),
            Map.entry(JobOptions.STARTING_OFFSETS, "earliest, latest or committed (falling back to earliest)."),
            Map.entry(JobOptions.MAX_OUT_OF_ORDERNESS, "How far behind the newest event time an event may arrive."),
            Map.entry(JobOptions.IDLE_TIMEOUT, "A partition silent this long stops holding back the watermark; 0 off."),
            Map.entry(JobOptions.DEDUPE_RETENTION, "Event time a process's progress is kept after its last transaction."),
            Map.entry(JobOptions.PARALLELISM, "Default operator parallelism."),
            Map.entry(JobOptions.MAX_PARALLELISM, "Key groups; fixed for the life of the job's state."),
            Map.entry(JobOptions.CHECKPOINT_INTERVAL, "0 disables checkpointing."),
            Map.entry(JobOptions.CHECKPOINT_DIR, "Where checkpoints go, a path or URI (file://, s3://...); none: "
                    + LOCAL_CHECKPOINTS + " in the working directory. A restart resumes from the latest there."),
            Map.entry(JobOptions.MAX_RESTARTS, "Failures the job restarts from (its latest checkpoint) within one "
                    + "restart window; one more ends it with exit code 255."),
            Map.entry(JobOptions.RESTART_WINDOW, "The window max-restarts counts failures in."),
            Map.entry(JobOptions.KAFKA_TIMEOUT, "How long the start-up check waits for the brokers and the topics "
                    + "before the job refuses to start (exit code 255)."),
            Map.entry(JobOptions.STATE_BACKEND, "rocksdb or hashmap."),
            Map.entry(JobOptions.CONSISTENCY_MODELS, "Comma-separated Elle model names to check, or none, as check's -c."),
            Map.entry(CheckerOptionsReader.ANOMALIES, "Further anomalies to prohibit, comma-separated, as check's -a."),
            Map.entry(JobOptions.WORKLOAD, "list-append or rw-register, as check's -m."),
            Map.entry(CheckerOptionsReader.CYCLE_SEARCH_BUDGET, "Edges one cycle search may visit, as check's."),
            Map.entry(CheckerOptionsReader.CYCLE_SEARCH_TIMEOUT, "Time one cycle search may take (e.g. 1s); 0 for no limit."),
            Map.entry(CheckerOptionsReader.WFR_KEYS, "rw-register: writes follow reads (true/false)."),
            Map.entry(CheckerOptionsReader.SEQUENTIAL_KEYS, "rw-register: sequentially consistent keys (true/false)."),
            Map.entry(CheckerOptionsReader.LINEARIZABLE_KEYS, "rw-register: linearizable keys (true/false)."));

    private static final String COMMAND = "isowatch job";

    @CommandLine.Spec
    CommandSpec spec;

    @Option(names = "--from-checkpoint", defaultValue = "latest", paramLabel = "latest|none|PATH",
            description = "Resume from the latest completed checkpoint in the checkpoint directory (latest), start "
                    + "afresh (none), or resume from a checkpoint or savepoint directory (PATH) "
                    + "(default: ${DEFAULT-VALUE}).")
    String fromCheckpoint;

    @Option(names = "--metrics-port", defaultValue = "-1", paramLabel = "P",
            description = "Serve the local cluster's metrics (Flink's Prometheus reporter) at http://127.0.0.1:P/ "
                    + "(--bind-address chooses the address); off by default.")
    int metricsPort;

    @CommandLine.Mixin
    BindAddressFlag bind;

    /** Adds one option per job option key, described with its default. */
    static final class Keys implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            for (Map.Entry<String, String> e : JobOptions.DEFAULTS.entrySet()) {
                String meaning = MEANINGS.getOrDefault(e.getKey(), "");
                String dflt = e.getValue().isEmpty() ? "none" : e.getValue();
                spec.addOption(OptionSpec.builder("--" + e.getKey())
                        .paramLabel("VALUE")
                        .type(String.class)
                        .description(meaning + " (default: " + dflt + ")")
                        .build());
            }
            return spec;
        }
    }

    @Override
    public Integer call() throws Exception {
        JobOptions options = options();
        InetAddress address = bind.address(); // an unknown address is a usage error before anything starts
        PrintWriter err = spec.commandLine().getErr();
        String resumeFrom = resumeFrom(options);
        try {
            KafkaPreflight.check(options);
        } catch (IllegalStateException e) {
            err.println(COMMAND + ": " + e.getMessage());
            err.flush();
            return ExitCodes.ERROR;
        }
        err.printf("%s: checking topic %s on %s against %s (%s); alerts to topic %s; checkpoints every %s in %s%s; "
                        + "%s; Ctrl-C stops%n",
                COMMAND, options.historyTopic(), options.bootstrapServers(), options.consistencyModels().isEmpty() ? "no model"
                        : String.join(", ", ConsistencyModel.names(options.consistencyModels())),
                options.workload().elleName(), options.alertsTopic(), Durations.format(options.checkpointInterval()),
                options.checkpointUri(), metricsPort < 0 ? "" : "; metrics at http://" + bind.urlHost() + ":" + metricsPort + "/",
                resumeFrom == null ? "starting afresh" : "resuming from " + resumeFrom);
        err.flush();
        StreamExecutionEnvironment env = LocalFlink.environment(options, metricsPort, address);
        if (resumeFrom != null) {
            Configuration restore = new Configuration();
            restore.set(StateRecoveryOptions.SAVEPOINT_PATH, resumeFrom);
            env.configure(restore);
        }
        new CheckerJob(options, CheckerJob.kafkaSource(options), CheckerJob.kafkaSinks(options))
                .build(env);
        JobClient job = env.executeAsync("isowatch checker");
        err.println(COMMAND + ": checker job " + job.getJobID() + " on a local Flink cluster at " + LocalFlink.webUi(env));
        err.flush();
        try (JobWatch watch = JobWatch.start(job, err, COMMAND, () -> { })) {
            try {
                job.getJobExecutionResult().get();
                return ExitCodes.VALID;
            } catch (ExecutionException e) {
                err.println(COMMAND + ": the checker job " + (JobWatch.isCancellation(e) ? "was cancelled"
                        : "failed for good after " + watch.restarts() + " restart(s)") + ": " + JobWatch.cause(e)
                        + "; its checkpoints stay in " + options.checkpointUri() + " and the next start resumes there");
                err.flush();
                return ExitCodes.ERROR;
            }
        }
    }

    /**
     * The checkpoint to resume from, as {@code --from-checkpoint} says: the latest completed one in
     * a local checkpoint directory, none, or the path given; null to start afresh.
     */
    private String resumeFrom(JobOptions options) {
        switch (fromCheckpoint) {
            case "none":
                return null;
            case "latest":
                String uri = options.checkpointUri();
                if (!uri.startsWith("file:")) {
                    spec.commandLine().getErr().println(COMMAND + ": cannot look for checkpoints in " + uri
                            + "; starting afresh (resume with --from-checkpoint PATH)");
                    return null;
                }
                return RetainedCheckpoints.latest(Path.of(URI.create(uri))).map(Path::toString).orElse(null);
            default:
                if (!Files.exists(Path.of(fromCheckpoint))) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "--from-checkpoint: " + fromCheckpoint
                            + " does not exist; give a chk-N or savepoint directory, latest or none");
                }
                return fromCheckpoint;
        }
    }

    /** The options given, the rest at their defaults; a bad value is a usage error naming the key. */
    JobOptions options() {
        ParseResult parsed = spec.commandLine().getParseResult();
        Map<String, String> raw = new LinkedHashMap<>();
        for (String key : JobOptions.DEFAULTS.keySet()) {
            if (parsed.hasMatchedOption("--" + key)) {
                raw.put(key, parsed.matchedOptionValue("--" + key, ""));
            }
        }
        JobOptions options;
        try {
            options = JobOptions.parse(raw);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (options.bootstrapServers().isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--bootstrap-servers is required, e.g. --bootstrap-servers localhost:9092");
        }
        return options.checkpointDir().isEmpty() ? options.with(JobOptions.CHECKPOINT_DIR, LOCAL_CHECKPOINTS) : options;
    }
}
