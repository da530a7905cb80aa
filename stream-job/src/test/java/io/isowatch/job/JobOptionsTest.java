package io.isowatch.job;

import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.RegisterOptions;
import io.isowatch.checker.Workload;
import org.apache.flink.state.rocksdb.RocksDBConfigurableOptions;
import org.junit.jupiter.api.Test;
import org.rocksdb.CompressionType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JobOptionsTest {

    @Test
    void parse_empty_givesDefaults() {
        JobOptions o = JobOptions.parse(Map.of());
        assertEquals("isowatch.history", o.historyTopic());
        assertEquals(Duration.ofSeconds(5), o.maxOutOfOrderness());
        assertEquals(1, o.parallelism());
        assertEquals(128, o.maxParallelism());
        assertEquals(Duration.ofSeconds(10), o.checkpointInterval());
        assertEquals("rocksdb", o.stateBackend());
        assertEquals("", o.bootstrapServers());
    }

    /** A fleet's clock uncertainty reaches the checker, and survives a copy with another option changed. */
    @Test
    void clockUncertainty_isAJobOption_thatReachesTheChecker() {
        assertEquals(Duration.ofMillis(100), JobOptions.parse(Map.of()).checker().clockUncertainty());
        JobOptions o = JobOptions.parse(Map.of("clock-uncertainty", "7ms"));
        assertEquals(Duration.ofMillis(7), o.checker().clockUncertainty());
        assertEquals(Duration.ofMillis(7), o.with("max-out-of-orderness", "1s").checker().clockUncertainty());
    }

    @Test
    void parse_unknownKey_isRejectedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JobOptions.parse(Map.of("max-out-of-order", "5s", "history-topic", "t")));
        assertTrue(e.getMessage().contains("[max-out-of-order]"), e.getMessage());
        assertTrue(e.getMessage().contains("max-out-of-orderness"), e.getMessage());
    }

    @Test
    void parse_durationsAndNumbers() {
        JobOptions o = JobOptions.parse(Map.of(
                "bootstrap-servers", "localhost:9092",
                "max-out-of-orderness", "250ms",
                "checkpoint-interval", "PT2S",
                "dedupe-retention", "2m",
                "idle-timeout", "0",
                "parallelism", "4",
                "max-parallelism", "64"));
        assertEquals(Duration.ofMillis(250), o.maxOutOfOrderness());
        assertEquals(Duration.ofSeconds(2), o.checkpointInterval());
        assertEquals(Duration.ofMinutes(2), o.dedupeRetention());
        assertEquals(Duration.ZERO, o.idleTimeout());
        assertEquals(4, o.parallelism());
        assertEquals(64, o.maxParallelism());
        assertEquals(o, JobOptions.parse(o.asMap()));
    }

    @Test
    void parse_badValue_namesKeyAndValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JobOptions.parse(Map.of("max-out-of-orderness", "five seconds")));
        assertTrue(e.getMessage().contains("max-out-of-orderness") && e.getMessage().contains("five seconds"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(Map.of("parallelism", "0")));
        assertTrue(e.getMessage().contains("parallelism"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(Map.of("state-backend", "memory")));
        assertTrue(e.getMessage().contains("state-backend") && e.getMessage().contains("memory"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> JobOptions.parse(Map.of("parallelism", "8", "max-parallelism", "4")));
        assertTrue(e.getMessage().contains("max-parallelism"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(Map.of("rocksdb-compression", "gzip")));
        assertTrue(e.getMessage().contains("rocksdb-compression") && e.getMessage().contains("gzip"), e.getMessage());
    }

    @Test
    void uiBaseUrl_noneByDefault_aLinkWhenSet_andABadOneIsRejectedByName() {
        assertEquals(null, JobOptions.defaultOptions().consoleLink());
        JobOptions o = JobOptions.parse(Map.of("ui-base-url", "https://isowatch.example.com/"));
        assertEquals("https://isowatch.example.com/findings/ab12", o.consoleLink().finding("ab12"));
        assertEquals(o, JobOptions.parse(o.asMap()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JobOptions.parse(Map.of("ui-base-url", "isowatch.example.com")));
        assertTrue(e.getMessage().contains("ui-base-url"), e.getMessage());
    }

    @Test
    void checkerOptions_areReadAsCheckReadsThem_everyOne() {
        JobOptions o = JobOptions.parse(Map.of(
                "consistency-models", "none",
                "anomalies", "G1a,lost-update",
                "workload", "rw-register",
                "cycle-search-budget", "1000",
                "cycle-search-timeout", "2s",
                "wfr-keys", "true",
                "linearizable-keys", "true"));
        CheckerOptions c = o.checkerOptions();
        assertEquals(Set.of(), c.consistencyModels());
        assertEquals(Set.of("G1a", "lost-update"), c.anomalies());
        assertEquals(Workload.RW_REGISTER, c.workload());
        assertEquals(1000, c.cycleSearchBudget());
        assertEquals(2000, c.cycleSearchTimeoutMillis());
        assertEquals(new RegisterOptions(true, false, true), c.registerOptions());
        assertEquals(o, JobOptions.parse(o.asMap()), "asMap() round-trips");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JobOptions.parse(Map.of("wfr-keys", "true")));
        assertTrue(e.getMessage().contains("option wfr-keys") && e.getMessage().contains("rw-register"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(Map.of("anomalies", "G7")));
        assertTrue(e.getMessage().startsWith("option anomalies: ") && e.getMessage().contains("G7"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(Map.of("reorder-window", "4")),
                "the job orders the checker's events: it has no reorder-window");
    }

    @Test
    void rocksdbCompression_reachesTheFlinkConfiguration_noneByDefault() {
        assertEquals(List.of(CompressionType.NO_COMPRESSION),
                CheckerJob.flinkConfiguration(JobOptions.defaultOptions()).get(RocksDBConfigurableOptions.COMPRESSION_PER_LEVEL));
        assertEquals(List.of(CompressionType.LZ4_COMPRESSION), CheckerJob.flinkConfiguration(
                JobOptions.parse(Map.of("rocksdb-compression", "LZ4"))).get(RocksDBConfigurableOptions.COMPRESSION_PER_LEVEL));
    }

    @Test
    void kafkaSource_withoutBootstrapServers_saysWhichOptionIsMissing() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CheckerJob.kafkaSource(JobOptions.defaultOptions()));
        assertTrue(e.getMessage().contains("bootstrap-servers"), e.getMessage());
    }
}
