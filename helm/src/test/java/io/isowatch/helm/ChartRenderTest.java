package io.isowatch.helm;

import static io.isowatch.helm.Charts.FULLNAME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.isowatch.helm.Charts.ValueSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What {@code helm template} renders for the default, minimal and full value sets (and, where it
 * concerns the checker, the fleet set; the agents of a history are {@link ChartAgentHistoryTest}'s).
 */
class ChartRenderTest {

    /** The options io.isowatch.job.CheckerJob accepts; anything else makes the job refuse to start. */
    static final Set<String> JOB_OPTIONS = Set.of("bootstrap-servers", "history-topic", "alerts-topic",
            "dead-letter-topic", "group-id", "starting-offsets", "max-out-of-orderness", "idle-timeout",
            "clock-uncertainty", "dedupe-retention", "rocksdb-compression", "parallelism", "max-parallelism", "checkpoint-interval", "state-backend",
            "consistency-models", "workload", "alerts-webhook", "ui-base-url");

    static final String JOB = FULLNAME + "-checker";
    static final String AGENT = FULLNAME + "-agent";
    static final String UI = FULLNAME + "-ui";

    @Test
    void defaultValues_renderJobAgentAndClaims_withoutOperatorExtras() {
        assertEquals(new TreeSet<>(List.of(
                        "Deployment/" + AGENT,
                        "FlinkDeployment/" + JOB,
                        "PersistentVolumeClaim/" + AGENT + "-spool",
                        "PersistentVolumeClaim/" + JOB + "-state",
                        "Service/" + AGENT)),
                Charts.render(ValueSet.DEFAULT).kindsAndNames());
    }

    @Test
    void minimalValues_renderOnlyTheFlinkDeployment() {
        assertEquals(Set.of("FlinkDeployment/" + JOB), Charts.render(ValueSet.MINIMAL).kindsAndNames());
    }

    @Test
    void fullValues_renderEveryResourceKind() {
        Manifests full = Charts.render(ValueSet.FULL);
        assertEquals(new TreeSet<>(List.of(
                        "ConfigMap/" + FULLNAME + "-dashboard",
                        "Deployment/" + AGENT,
                        "FlinkDeployment/" + JOB,
                        "KafkaTopic/" + FULLNAME + "-alerts",
                        "KafkaTopic/" + FULLNAME + "-dead-letters",
                        "KafkaTopic/" + FULLNAME + "-history",
                        "NetworkPolicy/" + AGENT,
                        "NetworkPolicy/" + JOB,
                        "NetworkPolicy/" + UI,
                        "PersistentVolumeClaim/" + AGENT + "-spool",
                        "PersistentVolumeClaim/" + JOB + "-state",
                        "PodMonitor/" + JOB,
                        "PrometheusRule/" + FULLNAME,
                        "Deployment/" + UI,
                        "Service/" + AGENT,
                        "Service/" + UI,
                        "ServiceMonitor/" + AGENT)),
                full.kindsAndNames());
        for (JsonNode doc : full.documents()) {
            assertEquals("data-platform", doc.path("metadata").path("labels").path("team").asText(),
                    () -> "commonLabels missing on " + doc.path("kind"));
        }
    }

    @ParameterizedTest
    @EnumSource(ValueSet.class)
    void flinkDeployment_runsTheJobJarWithSavepointUpgrades(ValueSet set) {
        JsonNode fd = Charts.render(set).one("FlinkDeployment");
        assertEquals("flink.apache.org/v1beta1", fd.path("apiVersion").asText());
        JsonNode job = fd.path("spec").path("job");
        assertEquals("local:///opt/flink/usrlib/isowatch-job.jar", job.path("jarURI").asText());
        assertEquals("io.isowatch.job.CheckerJob", job.path("entryClass").asText());
        assertEquals("savepoint", job.path("upgradeMode").asText());
        assertEquals("running", job.path("state").asText());
        assertEquals("v2_2", fd.path("spec").path("flinkVersion").asText());
        assertEquals("native", fd.path("spec").path("mode").asText());
    }

    @ParameterizedTest
    @EnumSource(ValueSet.class)
    void flinkConfiguration_enablesThePrometheusReporterOnTheScrapedPort(ValueSet set) {
        JsonNode spec = Charts.render(set).one("FlinkDeployment").path("spec");
        JsonNode conf = spec.path("flinkConfiguration");
        assertEquals("org.apache.flink.metrics.prometheus.PrometheusReporterFactory",
                conf.path("metrics.reporter.prom.factory.class").asText());
        assertEquals("9249", conf.path("metrics.reporter.prom.port").asText());
        assertEquals("false", conf.path("metrics.reporter.prom.filterLabelValueCharacters").asText(),
                "the delay histogram's le labels (0.05, +Inf) pass unfiltered");
        JsonNode main = spec.path("podTemplate").path("spec").path("containers").get(0);
        assertEquals("flink-main-container", main.path("name").asText());
        JsonNode port = main.path("ports").get(0);
        assertEquals("metrics", port.path("name").asText());
        assertEquals(9249, port.path("containerPort").asInt());
        conf.properties().forEach(e -> assertTrue(e.getValue().isTextual(),
                () -> "flinkConfiguration values must be strings: " + e.getKey() + " = " + e.getValue()));
    }

    @ParameterizedTest
    @EnumSource(ValueSet.class)
    void jobArgs_areKnownOptionsConsistentWithTheSpec(ValueSet set) {
        JsonNode spec = Charts.render(set).one("FlinkDeployment").path("spec");
        Map<String, String> args = Manifests.options(Manifests.strings(spec.path("job").path("args")));
        assertTrue(JOB_OPTIONS.containsAll(args.keySet()), () -> "unknown job options in " + args.keySet());
        assertEquals(spec.path("job").path("parallelism").asText(), args.get("parallelism"));
        assertEquals(spec.path("flinkConfiguration").path("state.backend.type").asText(), args.get("state-backend"));
        assertEquals(spec.path("flinkConfiguration").path("execution.checkpointing.interval").asText(),
                args.get("checkpoint-interval"));
        assertTrue(Integer.parseInt(args.get("max-parallelism")) >= Integer.parseInt(args.get("parallelism")));
    }

    @Test
    void jobArgs_defaultValues_exactly() {
        JsonNode spec = Charts.render(ValueSet.DEFAULT).one("FlinkDeployment").path("spec");
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("bootstrap-servers", "kafka-kafka-bootstrap.kafka.svc:9092");
        expected.put("history-topic", "isowatch.history");
        expected.put("alerts-topic", "isowatch.alerts");
        expected.put("dead-letter-topic", "isowatch.dead-letters");
        expected.put("group-id", "isowatch-job");
        expected.put("starting-offsets", "earliest");
        expected.put("max-out-of-orderness", "5s");
        expected.put("idle-timeout", "30s");
        expected.put("clock-uncertainty", "100ms");
        expected.put("dedupe-retention", "60s");
        expected.put("rocksdb-compression", "none");
        expected.put("parallelism", "2");
        expected.put("max-parallelism", "128");
        expected.put("checkpoint-interval", "10s");
        expected.put("state-backend", "rocksdb");
        expected.put("consistency-models", "strict-serializable");
        expected.put("workload", "list-append");
        assertEquals(expected, Manifests.options(Manifests.strings(spec.path("job").path("args"))));
        assertEquals(2, spec.path("job").path("parallelism").asInt());
    }

    @Test
    void jobArgs_fullValues_carryScaleModelsAndWebhook() {
        JsonNode spec = Charts.render(ValueSet.FULL).one("FlinkDeployment").path("spec");
        Map<String, String> args = Manifests.options(Manifests.strings(spec.path("job").path("args")));
        assertEquals("8", args.get("parallelism"));
        assertEquals("512", args.get("max-parallelism"));
        assertEquals("strict-serializable,serializable,snapshot-isolation", args.get("consistency-models"));
        assertEquals("http://alertmanager-operated.monitoring.svc:9093", args.get("alerts-webhook"));
        assertEquals("https://isowatch.example.com", args.get("ui-base-url"), "alerts link to the console");
        assertEquals("committed", args.get("starting-offsets"));
        assertEquals("isowatch-kafka-bootstrap.kafka.svc:9093", args.get("bootstrap-servers"));
        assertEquals(8, spec.path("job").path("parallelism").asInt());
        assertEquals("4", spec.path("flinkConfiguration").path("taskmanager.numberOfTaskSlots").asText());
    }

    @Test
    void flinkConfiguration_defaultValues_rocksDbWithCheckpointAndSavepointDirsOnTheStateVolume() {
        JsonNode spec = Charts.render(ValueSet.DEFAULT).one("FlinkDeployment").path("spec");
        JsonNode conf = spec.path("flinkConfiguration");
        assertEquals("rocksdb", conf.path("state.backend.type").asText());
        assertEquals("true", conf.path("execution.checkpointing.incremental").asText());
        assertEquals("file:///flink-data/checkpoints", conf.path("execution.checkpointing.dir").asText());
        assertEquals("file:///flink-data/savepoints", conf.path("execution.checkpointing.savepoint-dir").asText());
        assertFalse(conf.has("high-availability.type"));
        JsonNode pod = spec.path("podTemplate").path("spec");
        assertEquals("/flink-data", pod.path("containers").get(0).path("volumeMounts").get(0).path("mountPath").asText());
        assertEquals(JOB + "-state", pod.path("volumes").get(0).path("persistentVolumeClaim").path("claimName").asText());
        JsonNode pvc = Charts.render(ValueSet.DEFAULT).all("PersistentVolumeClaim").stream()
                .filter(d -> d.path("metadata").path("name").asText().equals(JOB + "-state")).findFirst().orElseThrow();
        assertEquals("ReadWriteMany", pvc.path("spec").path("accessModes").get(0).asText());
        assertEquals("keep", pvc.path("metadata").path("annotations").path("helm.sh/resource-policy").asText());
        JsonNode res = spec.path("taskManager").path("resource");
        assertEquals(2, res.path("cpu").asInt());
        assertEquals("4096m", res.path("memory").asText());
        assertEquals("2048m", spec.path("jobManager").path("resource").path("memory").asText());
    }

    @Test
    void flinkConfiguration_fullValues_addHaPeriodicSavepointsAndExtraKeys() {
        JsonNode spec = Charts.render(ValueSet.FULL).one("FlinkDeployment").path("spec");
        JsonNode conf = spec.path("flinkConfiguration");
        assertEquals("kubernetes", conf.path("high-availability.type").asText());
        assertEquals("file:///flink-data/ha", conf.path("high-availability.storageDir").asText());
        assertEquals("6h", conf.path("kubernetes.operator.periodic.savepoint.interval").asText());
        assertEquals("3", conf.path("execution.checkpointing.num-retained").asText());
        assertEquals(2, spec.path("jobManager").path("replicas").asInt());
        assertEquals("registry.example.com/isowatch/job:0.1.0", spec.path("image").asText());
    }

    @Test
    void minimalValues_objectStorageNeedsThePluginAndNoVolume() {
        JsonNode spec = Charts.render(ValueSet.MINIMAL).one("FlinkDeployment").path("spec");
        assertEquals("s3://isowatch-state/checkpoints", spec.path("flinkConfiguration").path("execution.checkpointing.dir").asText());
        assertEquals("hashmap", spec.path("flinkConfiguration").path("state.backend.type").asText());
        assertFalse(spec.path("flinkConfiguration").has("execution.checkpointing.incremental"));
        JsonNode pod = spec.path("podTemplate").path("spec");
        assertTrue(pod.path("volumes").isMissingNode());
        JsonNode env = pod.path("containers").get(0).path("env").get(0);
        assertEquals("ENABLE_BUILT_IN_PLUGINS", env.path("name").asText());
        assertEquals("flink-s3-fs-presto-2.2.1.jar", env.path("value").asText());
    }

    @Test
    void agent_defaultValues_embeddedTargetSpoolsOnItsClaimAndShipsToTheHistoryTopic() {
        Manifests m = Charts.render(ValueSet.DEFAULT);
        JsonNode deployment = m.one("Deployment");
        JsonNode podSpec = deployment.path("spec").path("template").path("spec");
        JsonNode container = podSpec.path("containers").get(0);
        Map<String, String> args = Manifests.options(Manifests.strings(container.path("args")));
        assertEquals("embedded:serializable", args.get("target"));
        assertFalse(args.containsKey("isolation"), "an embedded target names its own isolation level");
        assertFalse(args.containsKey("user"));
        assertEquals("/var/lib/isowatch/spool", args.get("spool-dir"));
        assertEquals(args.get("spool-dir"), container.path("volumeMounts").get(0).path("mountPath").asText());
        assertEquals("isowatch.history", args.get("topic"));
        assertEquals("kafka-kafka-bootstrap.kafka.svc:9092", args.get("bootstrap-servers"));
        assertEquals("0", args.get("duration"));
        assertEquals(AGENT, args.get("agent-id"));
        assertEquals("1000", args.get("rate"));
        assertEquals("10", args.get("concurrency"));
        assertEquals("10", args.get("keys"));
        assertEquals("list-append", args.get("workload"));
        assertEquals("9400", args.get("metrics-port"));
        assertEquals("0.0.0.0", args.get("bind-address"), "scraped through its Service, not from inside the pod");
        assertTrue(container.path("env").isMissingNode(), "no database password for an embedded target");

        assertEquals(1, deployment.path("spec").path("replicas").asInt());
        assertEquals("Recreate", deployment.path("spec").path("strategy").path("type").asText());
        assertEquals(AGENT + "-spool", podSpec.path("volumes").get(0).path("persistentVolumeClaim").path("claimName").asText());
        assertFalse(podSpec.path("automountServiceAccountToken").asBoolean(true));
        assertEquals(10001, podSpec.path("securityContext").path("fsGroup").asInt());

        JsonNode port = container.path("ports").get(0);
        assertEquals("metrics", port.path("name").asText());
        assertEquals(9400, port.path("containerPort").asInt());
        JsonNode service = m.one("Service");
        assertEquals(9400, service.path("spec").path("ports").get(0).path("port").asInt());
        assertEquals("metrics", service.path("spec").path("ports").get(0).path("targetPort").asText());
        assertEquals(deployment.path("spec").path("selector").path("matchLabels"), service.path("spec").path("selector"));
    }

    @Test
    void agent_jdbcTarget_takesThePasswordFromTheSecretOnly() {
        Manifests m = Charts.render(ValueSet.FULL);
        JsonNode container = m.named("Deployment", AGENT).path("spec").path("template").path("spec").path("containers").get(0);
        Map<String, String> args = Manifests.options(Manifests.strings(container.path("args")));
        assertEquals("jdbc:postgresql://orders-db.databases.svc:5432/orders", args.get("target"));
        assertEquals("serializable", args.get("isolation"));
        assertEquals("isowatch", args.get("user"));
        assertEquals("2500", args.get("rate"));
        assertEquals("32", args.get("concurrency"));
        assertFalse(args.containsKey("password"), "the password never goes on the command line");

        Map<String, JsonNode> env = new LinkedHashMap<>();
        container.path("env").forEach(e -> env.put(e.path("name").asText(), e));
        JsonNode password = env.get("ISOWATCH_DB_PASSWORD");
        assertFalse(password.has("value"), "the password never goes into the pod spec");
        JsonNode ref = password.path("valueFrom").path("secretKeyRef");
        assertEquals("orders-db-isowatch", ref.path("name").asText());
        assertEquals("password", ref.path("key").asText());
        assertEquals("-Xmx1g", env.get("JDK_JAVA_OPTIONS").path("value").asText());
        assertEquals("registry-credentials",
                m.named("Deployment", AGENT).path("spec").path("template").path("spec").path("imagePullSecrets").get(0).path("name").asText());
    }

    @Test
    void kafkaTopics_fullValues_nameTheTopicsTheJobAndAgentUse() {
        Manifests m = Charts.render(ValueSet.FULL);
        Map<String, JsonNode> byTopic = new LinkedHashMap<>();
        for (JsonNode t : m.all("KafkaTopic")) {
            assertEquals("kafka.strimzi.io/v1beta2", t.path("apiVersion").asText());
            assertEquals("isowatch-kafka", t.path("metadata").path("labels").path("strimzi.io/cluster").asText());
            assertEquals("kafka", t.path("metadata").path("namespace").asText());
            byTopic.put(t.path("spec").path("topicName").asText(), t);
        }
        assertEquals(Set.of("isowatch.history", "isowatch.alerts", "isowatch.dead-letters"), byTopic.keySet());
        JsonNode history = byTopic.get("isowatch.history").path("spec");
        assertEquals(24, history.path("partitions").asInt());
        assertEquals(3, history.path("replicas").asInt());
        assertEquals("259200000", history.path("config").path("retention.ms").asText());

        Map<String, String> jobArgs = Manifests.options(Manifests.strings(
                m.one("FlinkDeployment").path("spec").path("job").path("args")));
        assertEquals(byTopic.keySet(), Set.of(jobArgs.get("history-topic"), jobArgs.get("alerts-topic"),
                jobArgs.get("dead-letter-topic")));
        assertTrue(history.path("partitions").asInt() >= Integer.parseInt(jobArgs.get("parallelism")),
                "the history topic should have at least as many partitions as the job has source subtasks");
    }

    @Test
    void renamedTopic_reachesAgentJobAndTopicResource() {
        Manifests m = Charts.render(ValueSet.FULL, Map.of("kafka.topics.history", "orders.history"));
        Map<String, String> agentArgs = Manifests.options(Manifests.strings(
                m.named("Deployment", AGENT).path("spec").path("template").path("spec").path("containers").get(0).path("args")));
        Map<String, String> jobArgs = Manifests.options(Manifests.strings(
                m.one("FlinkDeployment").path("spec").path("job").path("args")));
        assertEquals("orders.history", agentArgs.get("topic"));
        assertEquals("orders.history", jobArgs.get("history-topic"));
        assertTrue(m.all("KafkaTopic").stream().anyMatch(t -> t.path("spec").path("topicName").asText().equals("orders.history")));
    }

    @Test
    void recordFormat_reachesTheAgent_binaryUnlessAskedForJson() {
        for (String format : new String[] {null, "json", "binary"}) {
            Manifests m = format == null ? Charts.render(ValueSet.FULL)
                    : Charts.render(ValueSet.FULL, Map.of("agent.recordFormat", format));
            Map<String, String> agentArgs = Manifests.options(Manifests.strings(
                    m.named("Deployment", AGENT).path("spec").path("template").path("spec").path("containers").get(0)
                            .path("args")));
            assertEquals(format == null ? "binary" : format, agentArgs.get("record-format"), "agent.recordFormat=" + format);
        }
    }

    @Test
    void longReleaseName_keepsTheFlinkClusterIdWithin45Characters() {
        String name = new com.marcnuri.helm.Helm(Charts.chartDir()).template()
                .withName("a-release-name-that-is-rather-long-for-a-cluster").withNamespace(Charts.NAMESPACE).call();
        JsonNode fd = Manifests.parse(name).one("FlinkDeployment");
        String id = fd.path("metadata").path("name").asText();
        assertTrue(id.length() <= 45, () -> id + " is " + id.length() + " characters");
        assertFalse(id.endsWith("-"), id);
    }
}
