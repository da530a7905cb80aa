package io.isowatch.bench;

import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Reading alone: the events of a history file decoded into ops per second, once warmed up (the
 * file comes from the page cache after the first pass). Run it with the core of another commit
 * first on the class path to compare readers in one sitting:
 * {@code java -cp OLD-CLI.jar:bench/target/benchmarks.jar org.openjdk.jmh.Main HistoryReadBenchmark -p file=F}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class HistoryReadBenchmark {

    /** The history to read; bench/check-benchmark.sh leaves its generated files in /tmp. */
    @Param({"/tmp/isowatch-bench-list-append-contended-500000.jsonl"})
    public String file;

    /** Reads the whole file; the score is files per second (multiply by its events for events/s). */
    @Benchmark
    public long readFile() {
        long events = 0;
        try (HistoryReader reader = HistoryReader.open(Path.of(file), new AtomTable())) {
            for (Op op = reader.next(); op != null; op = reader.next()) {
                events++;
            }
        }
        return events;
    }
}
