package io.isowatch.cli;

import io.isowatch.agent.transport.ShippedRecords;
import io.isowatch.agentcli.ExitCodes;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.Validity;
import io.isowatch.config.Topics;
import io.isowatch.history.AtomTable;
import io.isowatch.history.EventTimes;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryFormatException;
import io.isowatch.history.codec.HistoryReader;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.HistoryVerdict;
import io.isowatch.job.JobOptions;
import io.isowatch.job.JobSinks;
import io.isowatch.localpipeline.LocalPipeline;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * {@code isowatch replay}: the stream job's verdict on recorded histories. Each file becomes one
 * agent's history (agent id: the file name), published as the agent's shipper would publish it
 * to a KRaft broker inside this JVM and read back, bounded, by the checker job on a local Flink
 * cluster. It prints what {@code check} prints for the same options, so the two can be compared.
 *
 * <p><b>Event time.</b> The files' op times are kept (they appear in explanations), and
 * {@code max-out-of-orderness} is set to the files' whole span of event time plus a second, so
 * the watermark passes no event before the input ends: nothing is late, and at the end every
 * event is released at once, in index order, which is the order {@code check} reads a file in.
 * {@code dedupe-retention} gets the same bound, so no process's progress is cleared early.
 */
@Command(name = "replay", mixinStandardHelpOptions = true, addMethodSubcommands = false,
        description = {"Replays Jepsen histories through Kafka and the Flink checker job (both in this JVM) "
                + "and prints the job's verdict exactly as check prints its own.",
                "Exit status: 0 valid or unknown, 1 invalid, 255 error (as check)."})
final class ReplayCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    CheckFlags flags;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "History files; each is checked as its own history.")
    List<Path> files;

    /** One file read for publishing. */
    private record Input(Path file, String agent, List<Op> ops, AtomTable atoms) {
    }

    @Override
    public Integer call() throws Exception {
        CheckerOptions checks = flags.checkerOptions();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        long start = System.nanoTime();
        List<Input> inputs = new ArrayList<>();
        boolean anyError = false;
        for (Path file : files) {
            try {
                Input in = read(file, agentId(file, inputs));
                if (in.ops().isEmpty()) {
                    err.println("isowatch replay: " + file + ": no transaction ops to replay");
                    anyError = true;
                } else {
                    inputs.add(in);
                }
            } catch (HistoryFormatException e) {
                err.println("isowatch replay: " + file + ": " + e.getMessage());
                anyError = true;
            } catch (UncheckedIOException e) {
                err.println("isowatch replay: " + file + ": " + IoFailures.describe(e.getCause()));
                anyError = true;
            }
        }
        if (inputs.isEmpty()) {
            return ExitCodes.ERROR;
        }
        Outputs outputs = run(inputs, checks, err);
        double seconds = (System.nanoTime() - start) / 1e9;
        for (DeadLetter d : outputs.deadLetters) {
            err.println("isowatch replay: the job rejected an event (" + d.kind() + "): " + d.error());
            anyError = true;
        }
        boolean anyInvalid = false;
        for (Input in : inputs) {
            HistoryVerdict verdict = outputs.verdicts.get(in.agent());
            if (verdict == null) {
                err.println("isowatch replay: " + in.file() + ": the job gave no verdict");
                anyError = true;
                continue;
            }
            flags.print(out, in.file(), verdict.verdict(), verdict.atoms(), seconds,
                    io.isowatch.explain.Notation.of(flags.checkerOptions().workload()));
            anyInvalid |= verdict.verdict().valid() == Validity.FALSE;
            out.flush();
        }
        return anyError ? ExitCodes.ERROR : anyInvalid ? ExitCodes.INVALID : ExitCodes.VALID;
    }

    /** The file name, made unique among the inputs so far. */
    private static String agentId(Path file, List<Input> earlier) {
        String name = file.getFileName().toString();
        String id = name;
        for (int n = 2; ; n++) {
            String candidate = id;
            if (earlier.stream().noneMatch(i -> i.agent().equals(candidate))) {
                return id;
            }
            id = name + "~" + n;
        }
    }

    private static Input read(Path file, String agent) {
        AtomTable atoms = new AtomTable();
        List<Op> ops = new ArrayList<>();
        try (HistoryReader reader = HistoryReader.open(file, atoms)) {
            for (Op op = reader.next(); op != null; op = reader.next()) {
                ops.add(op);
            }
        }
        // The job needs event times; Elle (and check) do not, so Jepsen files may lack them.
        return new Input(file, agent, EventTimes.filledIn(ops), atoms);
    }

    /** What the job put out. */
    private static final class Outputs {
        final Map<String, HistoryVerdict> verdicts = new ConcurrentHashMap<>();
        final ConcurrentLinkedQueue<DeadLetter> deadLetters = new ConcurrentLinkedQueue<>();
    }

    private Outputs run(List<Input> inputs, CheckerOptions checks, PrintWriter err) throws Exception {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        // The topic the local pipeline creates and its job reads.
        ShippedRecords shipped = new ShippedRecords(Topics.HISTORY);
        long minMillis = Long.MAX_VALUE;
        long maxMillis = Long.MIN_VALUE;
        for (Input in : inputs) {
            // Sequence = position in the file, so ops sharing an index are not taken for re-sends.
            long seq = 0;
            for (Op op : in.ops()) {
                records.add(shipped.record(new HistoryEvent(in.agent(), seq++, op), in.atoms()));
                long millis = Math.floorDiv(op.time(), 1_000_000L);
                minMillis = Math.min(minMillis, millis);
                maxMillis = Math.max(maxMillis, millis);
            }
        }
        String bound = Math.max(60_000L, Math.addExact(maxMillis - minMillis, 1_000L)) + "ms";
        progress(err, "starting an in-JVM Kafka broker");
        Outputs outputs = new Outputs();
        Consumer<HistoryVerdict> verdicts = v -> outputs.verdicts.put(v.history(), v);
        Consumer<DeadLetter> deadLetters = outputs.deadLetters::add;
        List<String> names = List.of(InProcessSinks.register(verdicts), InProcessSinks.register(deadLetters));
        // Loopback only: replay is a batch run, nothing outside needs to reach it.
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (LocalPipeline pipeline = LocalPipeline.start(loopback, LocalPipeline.PARTITIONS)) {
            pipeline.kafka().send(records);
            JobOptions options = pipeline.jobOptions(Map.of(
                    JobOptions.GROUP_ID, "isowatch-replay",
                    JobOptions.MAX_OUT_OF_ORDERNESS, bound,
                    JobOptions.DEDUPE_RETENTION, bound,
                    JobOptions.IDLE_TIMEOUT, "0",
                    JobOptions.CHECKPOINT_INTERVAL, "0",
                    JobOptions.STATE_BACKEND, "rocksdb"), checks);
            progress(err, String.format("%,d events of %d histor%s published; running the checker job "
                    + "(parallelism %d, max-out-of-orderness %s)", records.size(), inputs.size(),
                    inputs.size() == 1 ? "y" : "ies", options.parallelism(), bound));
            // No alert sink: check prints no alerts, and the verdict holds every finding.
            JobSinks sinks = JobSinks.of(List.of(), InProcessSinks.sink(names.get(1)))
                    .withVerdicts(InProcessSinks.sink(names.get(0)));
            StreamExecutionEnvironment env = pipeline.environment(options, -1, new Configuration());
            pipeline.checkerJob(options, sinks, true).execute(env, "isowatch replay");
        } finally {
            names.forEach(InProcessSinks::unregister);
        }
        return outputs;
    }

    private void progress(PrintWriter err, String message) {
        if (!flags.quiet) {
            err.println("isowatch replay: " + message);
            err.flush();
        }
    }
}
