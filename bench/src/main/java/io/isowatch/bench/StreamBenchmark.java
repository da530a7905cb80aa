package io.isowatch.bench;

import io.isowatch.agent.transport.RecordFormat;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.job.JobOptions;
import io.isowatch.job.JobSinks;
import io.isowatch.job.OperatorIds;
import io.isowatch.sinks.DelaySummary;
import io.isowatch.localpipeline.LocalPipeline;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The checker job end to end on one machine: the {@link LocalPipeline} (a KRaft broker and the
 * job on a local Flink cluster; RocksDB, checkpoints to a local directory), and a rate-controlled
 * {@link HistoryFeeder} writing several agents' generated histories to the history topic, all in
 * this JVM. The job's own metrics are read through {@link BenchMetricReporter}; alerts through a
 * recording sink.
 *
 * <p>Modes:
 * <ul>
 *   <li>{@code throughput}: feed at {@code rate} transactions/s (0 = as fast as the producer
 *       goes) for {@code warmup + duration} seconds; over the last {@code duration} seconds report
 *       the fed and checked rates, the backlog (fed − checked) at the start and end of the
 *       window, the watermark lag and the alerts' detection delays; "sustained" means the job
 *       checked at least 97% of the fed rate and the backlog grew by less than one second's worth.</li>
 *   <li>{@code soak}: feed at {@code rate} for {@code duration} seconds and print a sample every
 *       {@code sample} seconds: heap after a full GC, resident memory, RocksDB working
 *       directory, checkpoint directory and last checkpoint size, the live graph's size.</li>
 *   <li>{@code drain}: first fill the topic with {@code txns} transactions as fast as the
 *       producer goes, with no job running; then start the job and report how fast it checks
 *       the backlog: the job's capacity with no feeder competing for the cores. Event times are
 *       those of the filling, so detection delays are not meaningful here and are not
 *       reported.</li>
 * </ul>
 *
 * <p>Throughput and soak runs then end the input: the feeder stops and the job stops with a
 * drain (Flink's final watermark), as a bounded input ends, so every history is settled and the
 * findings that wait for the end are released (decision 0009). The last lines give the
 * detection delay over every finding of the run, the drain's included, how many were released
 * only at the end, and how many of those had their evidence complete more than
 * {@value #END_WAIT_MILLIS} ms before the input ended: one measure of "live".
 *
 * <p>Every mode ends with the CPU per checked transaction: the job's Flink task threads alone
 * (source, decoding and the checker operator; {@link ResourceProbe#taskCpuNanos}), and the whole
 * process, whose feeder and broker share the cores.
 *
 * <p>Usage: {@code bench/stream-benchmark.sh [key=value …]}; keys and defaults in {@link #DEFAULTS}.
 * Everything shares the JVM and the cores: the broker, the producer and the job.
 */
public final class StreamBenchmark {

    static final Map<String, String> DEFAULTS = defaults();
    /** Arguments {@code flink.<key>=<value>} set {@code <key>} in the job's Flink configuration. */
    static final String FLINK_PREFIX = "flink.";

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("mode", "throughput");     // throughput, soak or drain
        d.put("txns", "3000000");        // drain: transactions put in the topic before the job starts
        d.put("rate", "");               // txn/s; throughput: 50000, soak: 10000; 0 = unlimited
        d.put("warmup", "30");           // s, throughput mode
        d.put("ramp", "0");              // s at the start in which the rate climbs linearly from 0
        d.put("duration", "");           // s; throughput: 60, soak: 1800, drain: 600 at most
        d.put("sample", "");             // s between lines; throughput: 5, soak: 60
        d.put("agents", "2");            // histories fed in parallel
        d.put("clients", "10");          // client processes per agent
        d.put("keys", "10");             // active keys per agent
        d.put("stale", "0.0002");        // stale-read rate (injected anomalies)
        d.put("format", "binary");       // how the feeder writes records, as the agent's --record-format: binary or json
        d.put("partitions", "4");
        d.put("parallelism", "2");
        d.put("ooo", "5s");              // max-out-of-orderness
        d.put("checkpoint", "10s");
        d.put("retention", "60s");       // the job's history-retention
        d.put("backend", "rocksdb");
        d.put("incremental", "");        // true/false: incremental RocksDB checkpoints; empty = the job's default
        d.put("models", "strict-serializable");
        d.put("fullgc", "");             // sample heap after System.gc(); soak: true, throughput: false
        d.put("dir", "/tmp/isowatch-stream-bench");
        d.put("managed", "256m");        // Flink managed memory (RocksDB)
        d.put("profile", "");            // file prefix: CPU profile of the measurement window
        return d;
    }

    private StreamBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new LinkedHashMap<>(DEFAULTS);
        for (String a : args) {
            String[] kv = a.split("=", 2);
            if (kv.length != 2 || !(o.containsKey(kv[0]) || kv[0].startsWith(FLINK_PREFIX))) {
                throw new IllegalArgumentException("unknown argument " + a + "; expected key=value with key in "
                        + o.keySet() + " or " + FLINK_PREFIX + "<a Flink configuration key>");
            }
            o.put(kv[0], kv[1]);
        }
        boolean soak = switch (o.get("mode")) {
            case "soak" -> true;
            case "throughput", "drain" -> false;
            default -> throw new IllegalArgumentException("mode must be throughput, soak or drain, got " + o.get("mode"));
        };
        fill(o, "rate", soak ? "10000" : "50000");
        boolean drain = o.get("mode").equals("drain");
        fill(o, "duration", soak ? "1800" : drain ? "600" : "60");
        fill(o, "sample", soak ? "60" : "5");
        fill(o, "fullgc", soak ? "true" : "false");
        System.out.println("# isowatch stream benchmark " + Instant.now() + ", " + Runtime.getRuntime().availableProcessors()
                + " cores, max heap " + ResourceProbe.mb(Runtime.getRuntime().maxMemory()) + " MB, java "
                + System.getProperty("java.version"));
        System.out.println("# options " + o);
        new StreamBenchmark().run(o, soak, drain);
        System.exit(0); // the broker's and Flink's non-daemon threads
    }

    /** The {@code flink.<key>=<value>} arguments as Flink configuration (RocksDB tuning, say). */
    private static Configuration flinkSettings(Map<String, String> o) {
        Map<String, String> settings = new LinkedHashMap<>();
        o.forEach((key, value) -> {
            if (key.startsWith(FLINK_PREFIX)) {
                settings.put(key.substring(FLINK_PREFIX.length()), value);
            }
        });
        return Configuration.fromMap(settings);
    }

    private static void fill(Map<String, String> o, String key, String value) {
        if (o.get(key).isEmpty()) {
            o.put(key, value);
        }
    }

    private void run(Map<String, String> o, boolean soak, boolean drain) throws Exception {
        Path dir = Path.of(o.get("dir"));
        deleteRecursively(dir);
        Files.createDirectories(dir);
        Path rocksdb = dir.resolve("rocksdb");
        Path checkpoints = dir.resolve("checkpoints");

        long t0 = System.nanoTime();
        // Ten minutes of retention keep the broker's disk use bounded over a soak.
        LocalPipeline pipeline = LocalPipeline.start(InetAddress.getLoopbackAddress(),
                Integer.parseInt(o.get("partitions")), Map.of("retention.ms", "600000", "segment.bytes", "134217728"));
        String topic = pipeline.topic();
        System.out.printf("# broker started and topic created in %.1f s%n", (System.nanoTime() - t0) / 1e9);

        JobOptions options = pipeline.jobOptions(Map.of(
                JobOptions.PARALLELISM, o.get("parallelism"),
                JobOptions.MAX_OUT_OF_ORDERNESS, o.get("ooo"),
                JobOptions.CHECKPOINT_INTERVAL, o.get("checkpoint"),
                JobOptions.HISTORY_RETENTION, o.get("retention"),
                JobOptions.STATE_BACKEND, o.get("backend"),
                JobOptions.CONSISTENCY_MODELS, o.get("models")));
        Configuration conf = new Configuration();
        BenchMetricReporter.configure(conf);
        conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        conf.set(RocksDBOptions.LOCAL_DIRECTORIES, rocksdb.toString());
        if (!o.get("incremental").isEmpty()) {
            conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, Boolean.parseBoolean(o.get("incremental")));
        }
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse(o.get("managed")));
        conf.addAll(flinkSettings(o));
        GeneratorOptions generator = GeneratorOptions.defaults()
                .toBuilder().txnCount(GeneratorOptions.MAX_TXN_COUNT)
                .concurrency(Integer.parseInt(o.get("clients")))
                .keyCount(Integer.parseInt(o.get("keys")))
                .closingReads(true)
                .staleReadRate(Double.parseDouble(o.get("stale"))).build();
        HistoryFeeder filled = drain ? fillTopic(pipeline.bootstrapServers(), topic, o, generator) : null;

        StreamExecutionEnvironment env = pipeline.environment(options, -1, conf);
        pipeline.checkerJob(options,
                JobSinks.of(List.of(BenchSinks.alerts()), BenchSinks.deadLetters()).withVerdicts(BenchSinks.verdicts()), false)
                .build(env);
        JobClient client = env.executeAsync("isowatch stream benchmark");
        System.out.println("# job " + client.getJobID() + " submitted; options " + options.asMap());

        long rate = Long.parseLong(o.get("rate"));
        WindowProfiler profiler = soak || o.get("profile").isEmpty() ? null : WindowProfiler.load(Path.of(o.get("profile")));
        HistoryFeeder feeder = drain ? filled : new HistoryFeeder(pipeline.bootstrapServers(), topic,
                Integer.parseInt(o.get("agents")), generator, rate, Duration.ofSeconds(Long.parseLong(o.get("ramp"))),
                RecordFormat.parse(o.get("format")));
        Sampler sampler = new Sampler(feeder, options.maxOutOfOrderness().toMillis(), rocksdb, checkpoints,
                Boolean.parseBoolean(o.get("fullgc")), soak);
        if (!drain) {
            feeder.start();
        }
        long started = System.currentTimeMillis();
        boolean ended = false;
        try {
            if (drain) {
                drain(sampler, feeder.transactions(), Long.parseLong(o.get("sample")), Long.parseLong(o.get("duration")),
                        profiler);
            } else if (soak) {
                soak(sampler, started, Long.parseLong(o.get("duration")), Long.parseLong(o.get("sample")), rate, feeder);
            } else {
                throughput(sampler, started, Long.parseLong(o.get("warmup")), Long.parseLong(o.get("duration")),
                        Long.parseLong(o.get("sample")), rate, options.maxOutOfOrderness().toMillis(), feeder, profiler);
            }
            if (!drain) {
                ended = endAndReportEveryFinding(client, feeder, dir.resolve("savepoint"), Integer.parseInt(o.get("agents")));
            }
        } finally {
            feeder.close(); // a drain's feeder is closed already; closing again does nothing
            if (!ended) {
                try {
                    client.cancel().get(60, TimeUnit.SECONDS);
                } catch (Exception e) {
                    System.out.println("# cancelling the job: " + e);
                }
            }
            pipeline.close();
        }
    }

    /** How long before the end of the input a finding's evidence may be complete and its release still count as live enough. */
    static final long END_WAIT_MILLIS = 2_000;

    /**
     * Ends the input and the job as a bounded one ends: the feeder ends each agent's history as a
     * stopped workload does (its closing reads included), and the job stops with
     * a drain (Flink's final watermark), which settles every history (decision 0009) and
     * releases what could only be released then. Then reports the detection delay over every
     * finding of the run, the drain's included: p50, p99, max, how many were released only at
     * the end, and how many of those had their evidence complete more than
     * {@value #END_WAIT_MILLIS} ms before the input ended (they waited for the end, not for the
     * checker). Returns whether the job ended.
     */
    private static boolean endAndReportEveryFinding(JobClient client, HistoryFeeder feeder, Path savepoints, int agents) {
        feeder.finish();
        long endOfInput = System.currentTimeMillis();
        boolean ended;
        try {
            client.stopWithSavepoint(true, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                    .get(120, TimeUnit.SECONDS);
            client.getJobExecutionResult().get(120, TimeUnit.SECONDS);
            ended = true;
        } catch (Exception e) {
            System.out.println("# stopping the job with a drain failed (" + e + "); findings of the end are missing");
            ended = false;
        }
        DelaySummary all = new DelaySummary();
        long waited = 0;
        long atEndDelay = 0;
        for (BenchSinks.Recorded r : BenchSinks.allAlerts()) {
            all.add(r.delayMillis(), r.atEnd());
            if (r.atEnd() && r.completedAtMillis() < endOfInput - END_WAIT_MILLIS) {
                waited++;
                atEndDelay = Math.max(atEndDelay, endOfInput - r.completedAtMillis());
            }
        }
        long[] p = all.p50p99max();
        System.out.printf("histories settled     %,d of %,d (the drain's final watermark %s)%n", BenchSinks.verdictCount(),
                agents, BenchSinks.verdictCount() >= agents ? "reached every history" : "did NOT reach every history");
        System.out.printf("every finding         %,d with a delay, the end's included; p50 / p99 / max = %s ms%n", all.count(),
                p == null ? "- / - / -" : String.format("%d / %d / %d", p[0], p[1], p[2]));
        System.out.printf("released at the end   %,d (decision 0009); of them %,d with evidence complete more than %,d ms"
                + " before the input ended%s%n", all.releasedAtEnd(), waited, END_WAIT_MILLIS,
                waited == 0 ? "" : String.format(" (up to %,d ms before)", atEndDelay));
        return ended;
    }

    private static void throughput(Sampler s, long started, long warmup, long duration, long every, long rate,
                                   long oooMillis, HistoryFeeder feeder, WindowProfiler profiler)
            throws InterruptedException, java.io.IOException {
        s.header();
        Sampler.Point start = null;
        long end = started + (warmup + duration) * 1000;
        Sampler.Point last = s.point();
        while (System.currentTimeMillis() < end && feeder.failure() == null) {
            long next = Math.min(end, last.atMillis() + every * 1000);
            sleepUntil(next);
            Sampler.Point p = s.point();
            s.print(started, last, p);
            last = p;
            if (start == null && p.atMillis() >= started + warmup * 1000) {
                start = p;
                if (profiler != null) {
                    profiler.start();
                }
            }
        }
        if (profiler != null && start != null) {
            profiler.stop();
        }
        if (feeder.failure() != null) {
            System.out.println("# feeder failed: " + feeder.failure());
        }
        if (start == null || last == start) {
            System.out.println("# no measurement window (warmup too long?)");
            return;
        }
        Sampler.Point stop = last;
        double secs = (stop.atMillis() - start.atMillis()) / 1000.0;
        double fed = (stop.fedTxn() - start.fedTxn()) / secs;
        double checked = (stop.checkedTxn() - start.checkedTxn()) / secs;
        long backlogStart = start.fedTxn() - start.checkedTxn();
        long backlogEnd = stop.fedTxn() - stop.checkedTxn();
        List<BenchSinks.Recorded> alerts = BenchSinks.alertsDetected(start.atMillis(), stop.atMillis());
        double[] delay = BenchSinks.percentiles(alerts.stream().mapToLong(BenchSinks.Recorded::delayMillis).toArray());
        double[] arrival = BenchSinks.percentiles(alerts.stream()
                .mapToLong(r -> r.arrivedAtMillis() - r.completedAtMillis()).toArray());
        boolean sustained = checked >= 0.97 * fed && backlogEnd - backlogStart < Math.max(1, (long) fed);
        System.out.println();
        System.out.printf("window                %.0f s after %d s warm-up (target rate %s)%n", secs, warmup,
                rate == 0 ? "unlimited" : String.format("%,d txn/s", rate));
        System.out.printf("fed                   %,.0f txn/s%n", fed);
        System.out.printf("checked               %,.0f txn/s%n", checked);
        System.out.printf("backlog fed-checked   %,d -> %,d txn (%+,.0f txn/s)%n", backlogStart, backlogEnd,
                (backlogEnd - backlogStart) / secs);
        System.out.printf("watermark lag at end  %s ms (bound max-out-of-orderness = %,d ms)%n",
                s.watermarkLag(stop), oooMillis);
        System.out.printf("alerts in window      %,d; detection delay p50 / p99 / max = %.0f / %.0f / %.0f ms"
                + " (%.0f / %.0f / %.0f ms beyond the bound)%n", alerts.size(), delay[0], delay[1], delay[2],
                delay[0] - oooMillis, delay[1] - oooMillis, delay[2] - oooMillis);
        System.out.printf("alert at the sink     p50 / p99 / max = %.0f / %.0f / %.0f ms after completion%n",
                arrival[0], arrival[1], arrival[2]);
        System.out.printf("late events           %,d (dead letters %,d, of them late %,d)%n", stop.late(),
                BenchSinks.deadLetterCount(), BenchSinks.lateDeadLetterCount());
        System.out.printf("CPU per checked txn   %s%n", s.cpuPerTxn(start, stop));
        printCheckpointsAndRestarts(stop);
        System.out.printf("sustained             %s%n", sustained && stop.restarts() == 0 ? "yes" : "no");
    }

    private static void soak(Sampler s, long started, long duration, long every, long rate, HistoryFeeder feeder)
            throws InterruptedException {
        s.header();
        long end = started + duration * 1000;
        Sampler.Point first = s.point();
        Sampler.Point last = first;
        while (System.currentTimeMillis() < end && feeder.failure() == null) {
            sleepUntil(Math.min(end, last.atMillis() + every * 1000));
            Sampler.Point p = s.point();
            s.print(started, last, p);
            s.printRocksDbSizes();
            last = p;
        }
        if (feeder.failure() != null) {
            System.out.println("# feeder failed: " + feeder.failure());
        }
        double secs = (last.atMillis() - started) / 1000.0;
        List<BenchSinks.Recorded> alerts = BenchSinks.alertsDetected(started, last.atMillis());
        double[] delay = BenchSinks.percentiles(alerts.stream().mapToLong(BenchSinks.Recorded::delayMillis).toArray());
        System.out.println();
        System.out.printf("soak %.0f s at %,d txn/s: fed %,d txn (%,.0f txn/s), checked %,d txn (%,.0f txn/s)%n",
                secs, rate, last.fedTxn(), last.fedTxn() / secs, last.checkedTxn(), last.checkedTxn() / secs);
        System.out.printf("alerts %,d; detection delay p50 / p99 / max = %.0f / %.0f / %.0f ms; late events %,d%n",
                alerts.size(), delay[0], delay[1], delay[2], last.late());
        System.out.printf("CPU per checked txn: %s%n", s.cpuPerTxn(first, last));
    }

    /** Fills the topic with {@code txns} transactions as fast as the producer goes; returns the stopped feeder. */
    private static HistoryFeeder fillTopic(String bootstrap, String topic, Map<String, String> o, GeneratorOptions generator)
            throws InterruptedException {
        long txns = Long.parseLong(o.get("txns"));
        long t0 = System.nanoTime();
        HistoryFeeder feeder = new HistoryFeeder(bootstrap, topic, Integer.parseInt(o.get("agents")), generator, 0,
                Duration.ZERO, RecordFormat.parse(o.get("format")));
        feeder.start();
        while (feeder.transactions() < txns && feeder.failure() == null) {
            Thread.sleep(50);
        }
        feeder.close();
        if (feeder.failure() != null) {
            throw new IllegalStateException("filling the topic failed", feeder.failure());
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.printf("# topic filled: %,d txn (%,d events) in %.1f s (%,.0f txn/s), no job running%n",
                feeder.transactions(), feeder.events(), secs, feeder.transactions() / secs);
        return feeder;
    }

    /**
     * Samples until the job has checked all {@code txns} (or {@code limit} seconds pass) and reports
     * the rate between the first sample with checked transactions and the last: the job's start
     * (Flink, RocksDB, the source's first fetch) is left out, and so is it from the profile, if any.
     */
    private static void drain(Sampler s, long txns, long every, long limit, WindowProfiler profiler)
            throws InterruptedException, java.io.IOException {
        long started = System.currentTimeMillis();
        s.header();
        Sampler.Point first = null;
        Sampler.Point last = s.point();
        while (last.checkedTxn() < txns && System.currentTimeMillis() < started + limit * 1000) {
            sleepUntil(last.atMillis() + every * 1000);
            Sampler.Point p = s.point();
            s.print(started, last, p);
            if (first == null && p.checkedTxn() > 0) {
                first = p;
                if (profiler != null) {
                    profiler.start();
                }
            }
            last = p;
        }
        if (profiler != null && first != null) {
            profiler.stop();
        }
        System.out.println();
        if (first == null) {
            System.out.println("# nothing checked within " + limit + " s");
            return;
        }
        if (last == first) {
            System.out.printf("# %,d txn checked within the first sample that saw any: too few to time;"
                    + " more txns or a shorter sample%n", last.checkedTxn());
            return;
        }
        double secs = (last.atMillis() - first.atMillis()) / 1000.0;
        System.out.printf("drained               %,d of %,d txn in %.0f s after the first checked (%,.0f s after submission)%n",
                last.checkedTxn(), txns, secs, (last.atMillis() - started) / 1000.0);
        System.out.printf("checked               %,.0f txn/s%n", (last.checkedTxn() - first.checkedTxn()) / secs);
        System.out.printf("CPU per checked txn   %s%n", s.cpuPerTxn(first, last));
        printCheckpointsAndRestarts(last);
    }

    private static void printCheckpointsAndRestarts(Sampler.Point p) {
        System.out.printf("checkpoints           %,d completed, %,d failed; last %s MB%n",
                BenchMetricReporter.sum("numberOfCompletedCheckpoints"), BenchMetricReporter.sum("numberOfFailedCheckpoints"),
                ResourceProbe.mb(BenchMetricReporter.sum("lastCheckpointFullSize")));
        System.out.printf("job restarts          %,d%n", p.restarts());
    }

    private static void sleepUntil(long epochMillis) throws InterruptedException {
        long wait = epochMillis - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    /** Reads the job's, the feeder's and the machine's numbers at one moment. */
    private static final class Sampler {
        private final HistoryFeeder feeder;
        private final long oooMillis;
        private final Path rocksdb;
        private final Path checkpoints;
        private final boolean fullGc;
        private final boolean soak;

        record Point(long atMillis, long fedTxn, long checkedTxn, long late, double watermark, long graphTxns,
                     long graphEdges, int alerts, long gcMillis, long heap, long rss, long rocksdbBytes,
                     long checkpointDirBytes, long checkpointBytes, long deadLetters, long restarts,
                     long taskCpuNanos, long processCpuNanos) {
        }

        Sampler(HistoryFeeder feeder, long oooMillis, Path rocksdb, Path checkpoints, boolean fullGc, boolean soak) {
            this.feeder = feeder;
            this.oooMillis = oooMillis;
            this.rocksdb = rocksdb;
            this.checkpoints = checkpoints;
            this.fullGc = fullGc;
            this.soak = soak;
        }

        Point point() {
            long now = System.currentTimeMillis();
            long fed = feeder.transactions();
            long checked = BenchMetricReporter.sum("transactions_checked");
            long late = BenchMetricReporter.sum("late_events");
            OptionalDouble wm = BenchMetricReporter.min("currentInputWatermark", OperatorIds.CHECK_TRANSACTIONS_NAME);
            long gc = ResourceProbe.gcMillis();
            long heap = soak ? (fullGc ? ResourceProbe.heapAfterFullGc() : ResourceProbe.heapAfterLastGc()) : -1;
            return new Point(now, fed, checked, late, wm.orElse(Double.NaN),
                    BenchMetricReporter.sum("graph_transactions"), BenchMetricReporter.sum("graph_edges"),
                    BenchSinks.alertCount(), gc, heap, soak ? ResourceProbe.residentBytes() : -1,
                    soak ? ResourceProbe.directoryBytes(rocksdb) : -1,
                    soak ? ResourceProbe.directoryBytes(checkpoints) : -1,
                    BenchMetricReporter.sum("lastCheckpointFullSize"),
                    BenchMetricReporter.sum("dead_letters")
                            + BenchMetricReporter.sum("malformedRecords"),
                    BenchMetricReporter.sum("numRestarts"), ResourceProbe.taskCpuNanos(),
                    ResourceProbe.processCpuNanos());
        }

        /**
         * CPU per transaction checked between two points, microseconds: the job's task threads,
         * and the whole process (feeder and broker included, which share the two cores).
         */
        String cpuPerTxn(Point a, Point b) {
            long txns = b.checkedTxn - a.checkedTxn;
            if (txns <= 0 || a.taskCpuNanos < 0 || a.processCpuNanos < 0) {
                return "n/a";
            }
            return String.format("%.2f µs in the job's task threads, %.2f µs in the whole process"
                    + " (%.0f%% and %.0f%% of the 2 cores' time)",
                    (b.taskCpuNanos - a.taskCpuNanos) / 1e3 / txns, (b.processCpuNanos - a.processCpuNanos) / 1e3 / txns,
                    coreShare(a, b, b.taskCpuNanos - a.taskCpuNanos), coreShare(a, b, b.processCpuNanos - a.processCpuNanos));
        }

        private static double coreShare(Point a, Point b, long cpuNanos) {
            double wallNanos = (b.atMillis - a.atMillis) * 1e6 * Runtime.getRuntime().availableProcessors();
            return wallNanos <= 0 ? Double.NaN : 100.0 * cpuNanos / wallNanos;
        }

        /**
         * RocksDB's own view of each state (column family), summed over subtasks: live data and
         * SST files, from the job's native RocksDB metrics.
         */
        void printRocksDbSizes() {
            Map<String, Long> live = BenchMetricReporter.sumBy("rocksdb.estimate-live-data-size", "<column_family>");
            Map<String, Long> sst = BenchMetricReporter.sumBy("rocksdb.total-sst-files-size", "<column_family>");
            Map<String, Long> keys = BenchMetricReporter.sumBy("rocksdb.estimate-num-keys", "<column_family>");
            StringBuilder line = new StringBuilder("#   rocksdb keys/live/sst(MB):");
            for (String cf : new TreeSet<>(sst.keySet())) {
                line.append(String.format(" %s=%,d/%s/%s", cf, keys.getOrDefault(cf, -1L),
                        ResourceProbe.mb(live.getOrDefault(cf, -1L)), ResourceProbe.mb(sst.get(cf))));
            }
            System.out.println(line);
        }

        String watermarkLag(Point p) {
            if (Double.isNaN(p.watermark) || p.watermark < 0) {
                return "n/a";
            }
            return String.format("%,.0f", p.atMillis - p.watermark);
        }

        void header() {
            if (soak) {
                System.out.printf("%6s %9s %9s %10s %8s %9s %9s %7s %8s %8s %9s %9s %10s %10s %7s %6s %8s %8s%n",
                        "t(s)", "fed/s", "checked/s", "backlog", "wm-lag", "heap(MB)", "rss(MB)", "gc(ms)",
                        "rocks(MB)", "ckdir(MB)", "ckpt(MB)", "graph-txn", "graph-edge", "checked", "alerts",
                        "late", "d-p99", "restarts");
            } else {
                System.out.printf("%6s %9s %9s %10s %8s %10s %10s %7s %6s %8s %7s %8s%n", "t(s)", "fed/s", "checked/s",
                        "backlog", "wm-lag", "graph-txn", "checked", "alerts", "late", "d-p99", "gc(ms)", "restarts");
            }
        }

        void print(long started, Point a, Point b) {
            double secs = Math.max(0.001, (b.atMillis - a.atMillis) / 1000.0);
            List<BenchSinks.Recorded> alerts = BenchSinks.alertsDetected(a.atMillis, b.atMillis);
            double[] d = BenchSinks.percentiles(alerts.stream().mapToLong(BenchSinks.Recorded::delayMillis).toArray());
            String p99 = Double.isNaN(d[1]) ? "-" : String.format("%.0f", d[1]);
            long t = (b.atMillis - started) / 1000;
            if (soak) {
                System.out.printf("%6d %,9.0f %,9.0f %,10d %8s %,9d %,9d %,7d %9s %9s %9s %,10d %,10d %,10d %7d %6d %8s %8d%n",
                        t, (b.fedTxn - a.fedTxn) / secs, (b.checkedTxn - a.checkedTxn) / secs, b.fedTxn - b.checkedTxn,
                        watermarkLag(b), b.heap / 1_000_000, b.rss / 1_000_000, b.gcMillis - a.gcMillis,
                        ResourceProbe.mb(b.rocksdbBytes), ResourceProbe.mb(b.checkpointDirBytes),
                        ResourceProbe.mb(b.checkpointBytes), b.graphTxns, b.graphEdges, b.checkedTxn, b.alerts, b.late,
                        p99, b.restarts);
            } else {
                System.out.printf("%6d %,9.0f %,9.0f %,10d %8s %,10d %,10d %7d %6d %8s %7d %8d%n", t,
                        (b.fedTxn - a.fedTxn) / secs, (b.checkedTxn - a.checkedTxn) / secs, b.fedTxn - b.checkedTxn,
                        watermarkLag(b), b.graphTxns, b.checkedTxn, b.alerts, b.late, p99, b.gcMillis - a.gcMillis, b.restarts);
            }
            System.out.flush();
        }
    }


    private static void deleteRecursively(Path dir) throws java.io.IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
