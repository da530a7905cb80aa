package io.isowatch.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.helm.Charts.ValueSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values the chart refuses: values.schema.json (checked by helm before rendering) and the
 * cross-field checks in templates/_helpers.tpl. Each test checks the message, so a rejection for
 * the wrong reason fails.
 */
class ChartValuesSchemaTest {

    static String rejection(ValueSet set, Map<String, Object> overrides) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Charts.template(set, overrides),
                () -> "expected helm to reject " + overrides);
        return e.getMessage();
    }

    static void assertContains(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), () -> "expected '" + part + "' in:\n" + message);
        }
    }

    @Test
    void parallelismZero_isRejectedBySchema() {
        assertContains(rejection(ValueSet.DEFAULT, Map.of("job.parallelism", 0)),
                "at '/job/parallelism': minimum: got 0, want 1");
    }

    @Test
    void unknownRecordFormat_isRejectedBySchema() {
        assertContains(rejection(ValueSet.DEFAULT, Map.of("agent.recordFormat", "edn")),
                "at '/agent/recordFormat': value must be one of 'binary', 'json'");
    }

    @Test
    void unknownKey_isRejectedByName() {
        assertContains(rejection(ValueSet.DEFAULT, Map.of("job.paralelism", 4)),
                "at '/job': additional properties 'paralelism' not allowed");
        assertContains(rejection(ValueSet.FULL, Map.of("monitoring.podmonitor.enabled", true)),
                "at '/monitoring': additional properties 'podmonitor' not allowed");
    }

    @Test
    void plainPassword_hasNoPlaceInValues() {
        assertContains(rejection(ValueSet.DEFAULT, Map.of("agent.database.password", "s3cret")),
                "at '/agent/database': additional properties 'password' not allowed");
    }

    @Test
    void passwordInTheJdbcUrl_isRejected() {
        assertContains(rejection(ValueSet.FULL, Map.of("agent.target", "jdbc:postgresql://db:5432/orders?user=u&password=s3cret")),
                "at '/agent/target'", "'not' failed");
    }

    @Test
    void jdbcTarget_withoutPasswordSecret_isRejected() {
        assertContains(rejection(ValueSet.DEFAULT, Map.of("agent.target", "jdbc:postgresql://db:5432/orders")),
                "at '/agent/database/passwordSecret/name': minLength: got 0, want 1");
    }

    @Test
    void unsupportedTarget_isRejected() {
        assertContains(rejection(ValueSet.DEFAULT, Map.of("agent.target", "embedded:linearizable")),
                "at '/agent/target'", "does not match pattern");
        assertContains(rejection(ValueSet.DEFAULT, Map.of("agent.target", "jdbc:oracle:thin:@db:1521/x")),
                "at '/agent/target'", "does not match pattern");
    }

    @Test
    void lastStateUpgrades_needHighAvailability() {
        assertContains(rejection(ValueSet.DEFAULT, Map.of("job.upgradeMode", "last-state")),
                "at '/job/highAvailability/enabled': value must be true");
        Manifests ok = Charts.render(ValueSet.DEFAULT,
                Map.of("job.upgradeMode", "last-state", "job.highAvailability.enabled", true));
        assertEquals("last-state", ok.one("FlinkDeployment").path("spec").path("job").path("upgradeMode").asText());
        assertEquals("kubernetes", ok.one("FlinkDeployment").path("spec").path("flinkConfiguration")
                .path("high-availability.type").asText());
    }

    @Test
    void flink1VersionForTheFlink2Image_isRejected() {
        assertContains(rejection(ValueSet.DEFAULT, Map.of("job.flinkVersion", "v1_20")),
                "at '/job/flinkVersion': value must be one of 'v2_0', 'v2_1', 'v2_2'");
    }

    @Test
    void enumsAndPatterns_areEnforced() {
        assertContains(rejection(ValueSet.DEFAULT, Map.of("job.stateBackend", "memory")),
                "at '/job/stateBackend': value must be one of 'rocksdb', 'hashmap'");
        assertContains(rejection(ValueSet.DEFAULT, Map.of("kafka.bootstrapServers", "kafka")),
                "at '/kafka/bootstrapServers'", "does not match pattern");
        assertContains(rejection(ValueSet.DEFAULT, Map.of("job.checkpointing.dir", "/local/only")),
                "at '/job/checkpointing/dir'", "does not match pattern");
        assertContains(rejection(ValueSet.DEFAULT, Map.of("agent.concurrency", 0)),
                "at '/agent/concurrency': minimum: got 0, want 1");
        assertContains(rejection(ValueSet.FULL, Map.of("monitoring.prometheusRule.consumerLagThreshold", 0)),
                "at '/monitoring/prometheusRule/consumerLagThreshold': minimum: got 0, want 1");
    }

    @Test
    void maxParallelismBelowParallelism_failsWithTheFix() {
        assertContains(rejection(ValueSet.FULL, Map.of("job.maxParallelism", 4)),
                "job.maxParallelism (4) must be at least job.parallelism (8)");
    }

    @Test
    void agentAndJobWorkloads_mustAgree() {
        assertContains(rejection(ValueSet.DEFAULT, Map.of("agent.workload", "rw-register")),
                "agent.workload (rw-register) and job.options.workload (list-append) must be the same workload");
        Manifests both = Charts.render(ValueSet.DEFAULT,
                Map.of("agent.workload", "rw-register", "job.options.workload", "rw-register"));
        assertEquals(2, both.kinds().stream().filter(k -> k.equals("Deployment") || k.equals("FlinkDeployment")).count());
    }

    @Test
    void flinkConfiguration_cannotOverrideWhatTheChartDerives(@TempDir Path tmp) throws Exception {
        Path extra = tmp.resolve("override.yaml");
        Files.writeString(extra, "job:\n  flinkConfiguration:\n    metrics.reporter.prom.port: \"9250\"\n");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Charts.template(ValueSet.DEFAULT, Map.of(), extra));
        assertContains(e.getMessage(), "job.flinkConfiguration.metrics.reporter.prom.port is set by the chart");
    }

    @Test
    void flinkConfiguration_valuesMustBeStrings(@TempDir Path tmp) throws Exception {
        Path extra = tmp.resolve("numeric.yaml");
        Files.writeString(extra, "job:\n  flinkConfiguration:\n    execution.checkpointing.num-retained: 3\n");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Charts.template(ValueSet.DEFAULT, Map.of(), extra));
        assertContains(e.getMessage(), "at '/job/flinkConfiguration/execution.checkpointing.num-retained': got number, want string");
    }
}
