package io.isowatch.bench;

import io.isowatch.agent.metrics.AgentMetrics;
import io.isowatch.agent.recorder.EventLog;
import io.isowatch.agent.recorder.HistoryRecorder;
import io.isowatch.agent.recorder.InMemoryEventLog;
import io.isowatch.agent.transport.ChronicleHistoryLog;
import io.isowatch.history.MicroOp;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * What the recorder costs a client per transaction: one {@code invoke} and one {@code ok}
 * (two events stamped, sequenced and appended), with metrics on, into an in-memory log or the
 * Chronicle spool on disk. Sample-time mode gives the distribution (p50, p99). Run with
 * {@code -t 4} to see contention on the recorder's lock. The target: p99 under 20 µs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g",
    "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
    "--add-opens=java.base/java.time=ALL-UNNAMED", "--add-opens=java.base/java.math=ALL-UNNAMED",
    "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED",
    "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
    "--add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED", "-Dchronicle.analytics.disable=true"})
public class RecorderBenchmark {

    /** A typical Elle transaction: two appends and two reads, reads filled in on completion. */
    private static final List<MicroOp> INVOKED = List.of(new MicroOp.Append(3, 17), new MicroOp.Read(4, null),
            new MicroOp.Append(5, 9), new MicroOp.Read(3, null));
    private static final List<MicroOp> COMPLETED = List.of(new MicroOp.Append(3, 17),
            new MicroOp.Read(4, new long[] {1, 2, 3, 4, 5, 6}), new MicroOp.Append(5, 9),
            new MicroOp.Read(3, new long[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}));

    @Param({"memory", "chronicle"})
    public String log;

    private final AtomicLong processes = new AtomicLong();
    private Path spoolDir;
    private EventLog eventLog;
    private HistoryRecorder recorder;

    /** Each benchmark thread is one client process. */
    @State(Scope.Thread)
    public static class Client {
        long process = -1;
    }

    @Setup(Level.Iteration)
    public void open() throws IOException {
        AgentMetrics metrics = new AgentMetrics(new PrometheusRegistry());
        if ("chronicle".equals(log)) {
            spoolDir = Files.createTempDirectory("isowatch-recorder-bench");
            eventLog = ChronicleHistoryLog.open(spoolDir, metrics);
        } else {
            // A fresh list per iteration keeps the heap from holding every event of the run.
            eventLog = new InMemoryEventLog();
        }
        recorder = HistoryRecorder.builder("bench", eventLog).metrics(metrics).build();
    }

    @TearDown(Level.Iteration)
    public void close() throws IOException {
        recorder.close();
        if (spoolDir != null) {
            try (Stream<Path> files = Files.walk(spoolDir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
            spoolDir = null;
        }
    }

    @Benchmark
    public void invokeAndOk(Client client) {
        if (client.process < 0) {
            client.process = processes.getAndIncrement();
        }
        recorder.invoke(client.process, INVOKED);
        recorder.ok(client.process, COMPLETED);
    }
}
