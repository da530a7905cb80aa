package io.isowatch.helm;

import static io.isowatch.helm.Charts.FULLNAME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.helm.Charts.ValueSet;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** ServiceMonitor, PodMonitor, PrometheusRule and the Grafana dashboard. */
class ChartMonitoringTest {

    /** Metric names the job (through Flink's Prometheus reporter) and the agent export. */
    static final Set<String> EXPORTED = Set.of(
            "flink_taskmanager_job_task_operator_isowatch_transactions_checked",
            "flink_taskmanager_job_task_operator_isowatch_anomaly_findings",
            "flink_taskmanager_job_task_operator_isowatch_model_ruled_out",
            "flink_taskmanager_job_task_operator_isowatch_late_events",
            "flink_taskmanager_job_task_operator_isowatch_dead_letters",
            "flink_taskmanager_job_task_operator_isowatch_graph_transactions",
            "flink_taskmanager_job_task_operator_isowatch_detection_delay_ms",
            "flink_taskmanager_job_task_operator_isowatch_le_detection_delay_seconds_bucket",
            "flink_jobmanager_job_numberOfFailedCheckpoints",
            "flink_jobmanager_job_numberOfCompletedCheckpoints",
            "flink_jobmanager_job_lastCheckpointDuration",
            "flink_taskmanager_job_task_operator_KafkaSourceReader_KafkaConsumer_records_lag_max",
            "flink_taskmanager_job_task_operator_pendingRecords",
            "isowatch_agent_events_recorded_total",
            "isowatch_agent_transactions_total",
            "isowatch_agent_transaction_latency_seconds_bucket",
            "isowatch_agent_events_shipped_total",
            "isowatch_agent_ship_errors_total",
            "isowatch_agent_shipper_stalled",
            "isowatch_agent_spool_backlog_events");

    private static final Pattern METRIC = Pattern.compile("\\b(flink_[A-Za-z0-9_]+|isowatch_agent_[a-z0-9_]+)\\b");

    static Set<String> metricNames(String expr) {
        Set<String> names = new TreeSet<>();
        Matcher m = METRIC.matcher(expr);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** Brackets, braces and parentheses balance: a cheap guard against a broken PromQL template. */
    static void assertBalanced(String expr) {
        ArrayList<Character> stack = new ArrayList<>();
        boolean quoted = false;
        for (char c : expr.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && "([{".indexOf(c) >= 0) {
                stack.add(c);
            } else if (!quoted && ")]}".indexOf(c) >= 0) {
                assertTrue(!stack.isEmpty() && "([{".indexOf(stack.remove(stack.size() - 1)) == ")]}".indexOf(c),
                        () -> "unbalanced: " + expr);
            }
        }
        assertTrue(stack.isEmpty() && !quoted, () -> "unbalanced: " + expr);
    }

    static Map<String, JsonNode> alerts(Manifests m) {
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        for (JsonNode group : m.one("PrometheusRule").path("spec").path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                byName.put(rule.path("alert").asText(), rule);
            }
        }
        return byName;
    }

    @Test
    void defaultValues_renderNoMonitoringResources() {
        Set<String> kinds = Charts.render(ValueSet.DEFAULT).kinds();
        for (String kind : List.of("ServiceMonitor", "PodMonitor", "PrometheusRule", "ConfigMap", "KafkaTopic")) {
            assertTrue(!kinds.contains(kind), () -> kind + " rendered although switched off");
        }
    }

    @Test
    void eachSwitch_addsExactlyItsResource() {
        Map<String, String> switches = Map.of(
                "monitoring.serviceMonitor.enabled", "ServiceMonitor",
                "monitoring.podMonitor.enabled", "PodMonitor",
                "monitoring.prometheusRule.enabled", "PrometheusRule",
                "monitoring.grafanaDashboard.enabled", "ConfigMap",
                "kafka.strimzi.topics.enabled", "KafkaTopic");
        Set<String> base = Charts.render(ValueSet.DEFAULT).kinds();
        switches.forEach((key, kind) -> {
            Set<String> added = new TreeSet<>(Charts.render(ValueSet.DEFAULT, Map.of(key, true)).kinds());
            added.removeAll(base);
            assertEquals(Set.of(kind), added, key);
        });
    }

    @Test
    void serviceMonitor_selectsTheAgentServiceByItsMetricsPort() {
        Manifests m = Charts.render(ValueSet.FULL);
        JsonNode sm = m.one("ServiceMonitor");
        assertEquals("monitoring.coreos.com/v1", sm.path("apiVersion").asText());
        assertEquals("kube-prometheus-stack", sm.path("metadata").path("labels").path("release").asText());
        JsonNode service = m.named("Service", ChartRenderTest.AGENT);
        sm.path("spec").path("selector").path("matchLabels").properties().forEach(e ->
                assertEquals(e.getValue(), service.path("metadata").path("labels").path(e.getKey()),
                        () -> "the ServiceMonitor selects on " + e + " which the Service lacks"));
        assertEquals(Charts.NAMESPACE, sm.path("spec").path("namespaceSelector").path("matchNames").get(0).asText());
        JsonNode endpoint = sm.path("spec").path("endpoints").get(0);
        assertEquals(service.path("spec").path("ports").get(0).path("name").asText(), endpoint.path("port").asText());
        assertEquals("/metrics", endpoint.path("path").asText());
        assertEquals("30s", endpoint.path("interval").asText());
    }

    @Test
    void podMonitor_selectsTheFlinkPodsByTheirMetricsPort() {
        Manifests m = Charts.render(ValueSet.FULL);
        JsonNode pm = m.one("PodMonitor");
        assertEquals("monitoring.coreos.com/v1", pm.path("apiVersion").asText());
        JsonNode podTemplate = m.one("FlinkDeployment").path("spec").path("podTemplate");
        JsonNode podLabels = podTemplate.path("metadata").path("labels");
        pm.path("spec").path("selector").path("matchLabels").properties().forEach(e ->
                assertEquals(e.getValue(), podLabels.path(e.getKey()),
                        () -> "the PodMonitor selects on " + e + " which the Flink pods lack"));
        assertEquals("checker", podLabels.path("app.kubernetes.io/component").asText());
        JsonNode endpoint = pm.path("spec").path("podMetricsEndpoints").get(0);
        assertEquals("metrics", endpoint.path("port").asText());
        assertEquals("metrics", podTemplate.path("spec").path("containers").get(0).path("ports").get(0).path("name").asText());
        // The agent's pods must not match: they carry component=agent.
        JsonNode agentLabels = m.named("Deployment", ChartRenderTest.AGENT).path("spec").path("template").path("metadata").path("labels");
        assertTrue(!pm.path("spec").path("selector").path("matchLabels").path("app.kubernetes.io/component")
                .equals(agentLabels.path("app.kubernetes.io/component")));
    }

    @Test
    void prometheusRule_alertsOnFindingsRuledOutModelsLagAndCheckpoints() {
        Map<String, JsonNode> alerts = alerts(Charts.render(ValueSet.FULL));
        assertEquals(List.of("IsowatchAnomalyFound", "IsowatchModelRuledOut", "IsowatchKafkaConsumerLagHigh",
                "IsowatchCheckpointsFailing", "IsowatchAgentShippingFailing"), new ArrayList<>(alerts.keySet()));

        String finding = alerts.get("IsowatchAnomalyFound").path("expr").asText();
        assertTrue(finding.contains("sum by (namespace, anomaly) (increase(flink_taskmanager_job_task_operator_isowatch_anomaly_findings{namespace=\"checks\"}[5m])) > 0"), finding);
        assertTrue(finding.contains("unless sum by (namespace, anomaly) (flink_taskmanager_job_task_operator_isowatch_anomaly_findings{namespace=\"checks\"} offset 5m)"),
                () -> "a first finding of a new anomaly type starts a new series, which increase() misses: " + finding);
        assertEquals("critical", alerts.get("IsowatchAnomalyFound").path("labels").path("severity").asText());

        assertEquals("max by (namespace, model) (flink_taskmanager_job_task_operator_isowatch_model_ruled_out{namespace=\"checks\"}) >= 1",
                alerts.get("IsowatchModelRuledOut").path("expr").asText());

        JsonNode lag = alerts.get("IsowatchKafkaConsumerLagHigh");
        assertEquals("max by (namespace) (flink_taskmanager_job_task_operator_KafkaSourceReader_KafkaConsumer_records_lag_max{namespace=\"checks\"}) > 50000",
                lag.path("expr").asText());
        assertEquals("10m", lag.path("for").asText());
        assertEquals("warning", lag.path("labels").path("severity").asText());

        assertEquals("max by (namespace) (increase(flink_jobmanager_job_numberOfFailedCheckpoints{namespace=\"checks\"}[15m])) > 0",
                alerts.get("IsowatchCheckpointsFailing").path("expr").asText());

        for (JsonNode rule : alerts.values()) {
            String expr = rule.path("expr").asText();
            assertBalanced(expr);
            assertTrue(EXPORTED.containsAll(metricNames(expr)), () -> "unknown metric in " + expr);
            assertTrue(!rule.path("annotations").path("summary").asText().isBlank());
            assertTrue(!rule.path("annotations").path("description").asText().isBlank());
        }
        assertTrue(alerts.get("IsowatchAnomalyFound").path("annotations").path("summary").asText().contains("{{ $labels.anomaly }}"),
                "Prometheus templates in annotations must survive Helm's rendering");
    }

    @Test
    void prometheusRule_thresholdsFollowValues_andAgentAlertFollowsTheAgent() {
        Map<String, JsonNode> alerts = alerts(Charts.render(ValueSet.MINIMAL, Map.of(
                "monitoring.prometheusRule.enabled", true,
                "monitoring.prometheusRule.consumerLagThreshold", 2500000,
                "monitoring.prometheusRule.findingWindow", "2m")));
        assertTrue(alerts.get("IsowatchKafkaConsumerLagHigh").path("expr").asText().endsWith("> 2500000"),
                () -> "thresholds must not turn into floats or exponents: " + alerts.get("IsowatchKafkaConsumerLagHigh"));
        assertTrue(alerts.get("IsowatchAnomalyFound").path("expr").asText().contains("[2m]"));
        assertTrue(!alerts.containsKey("IsowatchAgentShippingFailing"), "no agent, no agent alert");
    }

    @Test
    void grafanaDashboard_isTheDashboardFileInALabelledConfigMap() throws Exception {
        JsonNode cm = Charts.render(ValueSet.FULL).one("ConfigMap");
        assertEquals(FULLNAME + "-dashboard", cm.path("metadata").path("name").asText());
        assertEquals("1", cm.path("metadata").path("labels").path("grafana_dashboard").asText());
        assertEquals("isowatch", cm.path("metadata").path("annotations").path("grafana_folder").asText());
        ObjectMapper json = new ObjectMapper();
        JsonNode rendered = json.readTree(cm.path("data").path("isowatch.json").asText());
        JsonNode file = json.readTree(Files.readString(Charts.chartDir().resolve("dashboards/isowatch.json")));
        assertEquals(file, rendered);
        assertEquals("isowatch-overview", rendered.path("uid").asText());
    }

    @Test
    void grafanaDashboard_queriesOnlyExportedMetricsThroughTheDatasourceVariable() throws Exception {
        JsonNode dash = new ObjectMapper().readTree(Files.readString(Charts.chartDir().resolve("dashboards/isowatch.json")));
        Set<String> used = new TreeSet<>();
        Set<String> titles = new TreeSet<>();
        int queries = 0;
        for (JsonNode panel : dash.path("panels")) {
            if (panel.path("type").asText().equals("row")) {
                continue;
            }
            assertTrue(titles.add(panel.path("title").asText()), () -> "duplicate title " + panel.path("title"));
            assertEquals("${datasource}", panel.path("datasource").path("uid").asText(), panel.path("title").asText());
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr").asText();
                assertBalanced(expr);
                assertTrue(expr.contains("namespace=\"$namespace\""), expr);
                used.addAll(metricNames(expr));
                queries++;
            }
        }
        Set<String> unknown = new TreeSet<>(used);
        unknown.removeAll(EXPORTED);
        assertEquals(Set.of(), unknown);
        assertTrue(queries >= 15, "queries: " + queries);
        for (String key : List.of("flink_taskmanager_job_task_operator_isowatch_anomaly_findings",
                "flink_taskmanager_job_task_operator_isowatch_model_ruled_out",
                "flink_taskmanager_job_task_operator_KafkaSourceReader_KafkaConsumer_records_lag_max",
                "isowatch_agent_spool_backlog_events")) {
            assertTrue(used.contains(key), () -> "dashboard lacks " + key);
        }
        List<String> variables = new ArrayList<>();
        dash.path("templating").path("list").forEach(v -> variables.add(v.path("name").asText()));
        assertEquals(List.of("datasource", "namespace"), variables);
    }
}
