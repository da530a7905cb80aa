package io.isowatch.cli;

import io.isowatch.agentcli.BindAddressFlag;
import io.isowatch.agentcli.ExitCodes;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.config.Durations;
import io.isowatch.job.CheckerJob;
import io.isowatch.config.OptionDeclaration;
import io.isowatch.job.JobDeclarations;
import io.isowatch.job.JobOptions;
import io.isowatch.job.KafkaPreflight;
import io.isowatch.localpipeline.LocalFlink;
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
 * {@code --key value}, described from its declaration ({@link JobDeclarations}), so a new key
 * appears here without a change.
 */
@Command(name = "job", mixinStandardHelpOptions = true, addMethodSubcommands = false, modelTransformer = JobCommand.Keys.class,
        description = {"Runs the checker job on a local Flink cluster against an existing Kafka, until Ctrl-C.",
                "Example: isowatch job --bootstrap-servers localhost:9092 --consistency-models serializable"})
final class JobCommand implements Callable<Integer> {

    /** The checkpoint directory of a local job given none, under the working directory. */
    static final String LOCAL_CHECKPOINTS = "isowatch-checkpoints";

    private static final String COMMAND = "isowatch job";

    @CommandLine.Spec
    CommandSpec spec;

    @Option(names = "--from-checkpoint", descriptionKey = "from-checkpoint", paramLabel = "latest|none|PATH")
    String fromCheckpoint;

    /** Declared without a default ("off"); {@code -1} is off to the code. */
    @Option(names = "--metrics-port", descriptionKey = "metrics-port", defaultValue = "-1", paramLabel = "P")
    int metricsPort;

    @CommandLine.Mixin
    BindAddressFlag bind;

    /** Adds one option per job option key, described with its default. */
    static final class Keys implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            for (OptionDeclaration<?> o : JobDeclarations.ALL) {
                String doc = o.doc().replace("`", "");
                String dflt = o.defaultText().isEmpty() ? o.noDefault() : o.defaultText();
                spec.addOption(OptionSpec.builder("--" + o.key())
                        .paramLabel("VALUE")
                        .type(String.class)
                        .description(Character.toUpperCase(doc.charAt(0)) + doc.substring(1) + "; "
                                + o.type().describe() + " (default: " + dflt + ").")
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
