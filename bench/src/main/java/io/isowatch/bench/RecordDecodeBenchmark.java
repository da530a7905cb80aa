package io.isowatch.bench;

import io.isowatch.agent.transport.RecordFormat;
import io.isowatch.agent.transport.ShippedRecords;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryReader;
import io.isowatch.job.serde.HistoryRecordDeserializer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The stream job's first cost: decoding shipped records into events, per record, in either
 * {@link RecordFormat}: {@code json}, one op map with the shipper's {@code agent} and {@code seq}
 * added, or {@code binary}, the spool's form, which agents ship by default. The records are the
 * first {@value #RECORDS} lines of a history file, with times as the agent stamps them, written
 * as the shipper writes them ({@link ShippedRecords}). Put another commit's CLI jar first on the
 * class path to compare decoders in one sitting.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 4)
@Measurement(iterations = 3, time = 4)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class RecordDecodeBenchmark {

    static final int RECORDS = 100_000;
    /** 2026-01-01T00:00:00Z in nanoseconds: where the agent's clock starts its times. */
    private static final long EPOCH_NANOS = 1_767_225_600_000_000_000L;
    private static final java.util.regex.Pattern AGENT_TIME = java.util.regex.Pattern.compile("\"time\":(\\d+)");

    @Param({"/tmp/isowatch-bench-list-append-contended-500000.jsonl"})
    public String file;

    @Param({"json", "binary"})
    public String format;

    private byte[][] values;
    private final HistoryRecordDeserializer deserializer = new HistoryRecordDeserializer();

    @Setup(Level.Trial)
    public void load() throws IOException {
        ShippedRecords shipped = new ShippedRecords("history", RecordFormat.parse(format));
        AtomTable atoms = new AtomTable();
        try (Stream<String> lines = Files.lines(Path.of(file))) {
            List<String> first = lines.limit(RECORDS).toList();
            values = new byte[first.size()][];
            for (int i = 0; i < values.length; i++) {
                // As the agent stamps it: time in nanoseconds since the epoch (19 digits).
                String line = AGENT_TIME.matcher(first.get(i))
                        .replaceFirst(m -> "\"time\":" + (EPOCH_NANOS + Long.parseLong(m.group(1))));
                Op op;
                try (HistoryReader reader = HistoryReader.ofJson("line " + i, line.getBytes(StandardCharsets.UTF_8),
                        atoms)) {
                    op = reader.next();
                }
                values[i] = shipped.record(new HistoryEvent("a1", i, op), atoms).value();
            }
        }
        long bytes = 0;
        for (byte[] v : values) {
            bytes += v.length;
        }
        System.out.printf("# %,d %s records, %.1f bytes each on average%n", values.length, format,
                (double) bytes / values.length);
    }

    /** Decodes every record once; the score is records per second. */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public long decode() {
        long events = 0;
        for (int i = 0; i < values.length; i++) {
            if (deserializer.decode(new ConsumerRecord<>("history", 0, i, null, values[i])) != null) {
                events++;
            }
        }
        return events;
    }
}
