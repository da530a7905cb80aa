package io.isowatch.helm;

import static io.isowatch.helm.ChartRenderTest.AGENT;
import static io.isowatch.helm.ChartRenderTest.UI;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.isowatch.helm.Charts.ValueSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The optional findings console: its Deployment and Service, and the links the job's alerts carry to it. */
class ChartUiTest {

    private static JsonNode container(Manifests m) {
        return m.named("Deployment", UI).path("spec").path("template").path("spec").path("containers").get(0);
    }

    @Test
    void switch_addsExactlyTheConsolesDeploymentAndService() {
        Set<String> added = new TreeSet<>(Charts.render(ValueSet.DEFAULT, Map.of("ui.enabled", true)).kindsAndNames());
        added.removeAll(Charts.render(ValueSet.DEFAULT).kindsAndNames());
        assertEquals(Set.of("Deployment/" + UI, "Service/" + UI), added);
    }

    @Test
    void console_runsIsowatchUiOnTheAlertsTopic_onEveryInterfaceOfItsPod() {
        Manifests m = Charts.render(ValueSet.FULL, Map.of("kafka.topics.alerts", "orders.alerts"));
        JsonNode c = container(m);
        assertEquals(List.of("java", "-jar", "/opt/isowatch/isowatch-agent.jar", "ui"), Manifests.strings(c.path("command")));
        Map<String, String> args = Manifests.options(Manifests.strings(c.path("args")));
        assertEquals("isowatch-kafka-bootstrap.kafka.svc:9093", args.get("bootstrap-servers"));
        assertEquals("orders.alerts", args.get("alerts-topic"));
        Map<String, String> job = Manifests.options(Manifests.strings(
                m.one("FlinkDeployment").path("spec").path("job").path("args")));
        assertEquals(job.get("alerts-topic"), args.get("alerts-topic"), "the console reads what the job writes");
        assertEquals("0.0.0.0", args.get("ui-bind"), "reached through its Service, not from inside the pod");
        assertEquals("8642", args.get("ui-port"));
        assertEquals("10000", args.get("max-findings"));
        assertEquals("registry.example.com/isowatch/agent:0.1.0", c.path("image").asText(),
                "the agent image's jar offers ui beside agent run");
        assertEquals("-Xmx512m", c.path("env").get(0).path("value").asText());
        assertTrue(c.path("securityContext").path("readOnlyRootFilesystem").asBoolean());
        assertEquals("/api/overview", c.path("readinessProbe").path("httpGet").path("path").asText());
    }

    @Test
    void service_reachesTheConsolesPodsOnly() {
        Manifests m = Charts.render(ValueSet.FULL);
        JsonNode deployment = m.named("Deployment", UI);
        JsonNode service = m.named("Service", UI);
        assertEquals(deployment.path("spec").path("selector").path("matchLabels"), service.path("spec").path("selector"));
        JsonNode podLabels = deployment.path("spec").path("template").path("metadata").path("labels");
        service.path("spec").path("selector").properties().forEach(e -> assertEquals(e.getValue(), podLabels.path(e.getKey())));
        assertNotEquals(service.path("spec").path("selector"),
                m.named("Service", AGENT).path("spec").path("selector"), "the agent's pods must not match");
        JsonNode port = service.path("spec").path("ports").get(0);
        assertEquals(8642, port.path("port").asInt());
        assertEquals("http", port.path("targetPort").asText());
        assertEquals("http", container(m).path("ports").get(0).path("name").asText());
        assertEquals(8642, container(m).path("ports").get(0).path("containerPort").asInt());
        assertEquals("ClusterIP", service.path("spec").path("type").asText());
    }

    @Test
    void baseUrl_linksTheJobsAlerts_evenToAConsoleRunElsewhere() {
        Map<String, String> none = Manifests.options(Manifests.strings(Charts.render(ValueSet.DEFAULT)
                .one("FlinkDeployment").path("spec").path("job").path("args")));
        assertFalse(none.containsKey("ui-base-url"));
        Map<String, String> linked = Manifests.options(Manifests.strings(Charts.render(ValueSet.DEFAULT,
                Map.of("ui.baseUrl", "http://console.checks.svc:8642")).one("FlinkDeployment").path("spec").path("job").path("args")));
        assertEquals("http://console.checks.svc:8642", linked.get("ui-base-url"));
    }

    @Test
    void badValues_areRefusedBySchema() {
        ChartValuesSchemaTest.assertContains(ChartValuesSchemaTest.rejection(ValueSet.DEFAULT,
                Map.of("ui.baseUrl", "isowatch.example.com")), "at '/ui/baseUrl'");
        ChartValuesSchemaTest.assertContains(ChartValuesSchemaTest.rejection(ValueSet.DEFAULT,
                Map.of("ui.service.type", "ExternalName")), "at '/ui/service/type'");
        ChartValuesSchemaTest.assertContains(ChartValuesSchemaTest.rejection(ValueSet.DEFAULT,
                Map.of("ui.port", 80)), "at '/ui/port'");
    }
}
