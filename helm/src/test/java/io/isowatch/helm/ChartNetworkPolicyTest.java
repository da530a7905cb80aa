package io.isowatch.helm;

import static io.isowatch.helm.ChartRenderTest.AGENT;
import static io.isowatch.helm.ChartRenderTest.JOB;
import static io.isowatch.helm.ChartRenderTest.UI;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.isowatch.helm.Charts.ValueSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The NetworkPolicies ({@code networkPolicy.enabled}): each selects its component's pods and
 * admits only the peers the values list, on the ports they need; an empty list admits no one.
 * And nothing is exposed beyond the cluster by default: the Flink REST API included.
 */
class ChartNetworkPolicyTest {

    private static final JsonNode OPERATOR = Charts.YAML.createObjectNode().set("app.kubernetes.io/name",
            Charts.YAML.getNodeFactory().textNode("flink-kubernetes-operator"));

    @Test
    void off_byDefault() {
        assertTrue(Charts.render(ValueSet.DEFAULT).all("NetworkPolicy").isEmpty());
    }

    @Test
    void flinkPods_admitEachOther_theOperatorOnRestOnly_andPrometheusOnMetricsOnly() {
        Manifests m = Charts.render(ValueSet.FULL);
        JsonNode policy = m.named("NetworkPolicy", JOB);
        JsonNode podLabels = m.one("FlinkDeployment").path("spec").path("podTemplate").path("metadata").path("labels");
        assertSelects(policy, podLabels);
        JsonNode agentLabels = m.named("Deployment", AGENT).path("spec").path("template").path("metadata").path("labels");
        assertNotEquals(agentLabels.path("app.kubernetes.io/component"),
                policy.path("spec").path("podSelector").path("matchLabels").path("app.kubernetes.io/component"));

        JsonNode rules = policy.path("spec").path("ingress");
        assertEquals(3, rules.size(), rules.toString());
        JsonNode peers = rules.get(0);
        assertEquals(policy.path("spec").path("podSelector"), peers.path("from").get(0).path("podSelector"),
                "JobManager and TaskManagers reach each other");
        assertTrue(peers.path("ports").isMissingNode(), "on every port: RPC, blob server, data exchange, REST");
        JsonNode operator = rules.get(1);
        assertEquals(OPERATOR, operator.path("from").get(0).path("podSelector").path("matchLabels"));
        assertEquals(List.of(8081), ports(operator));
        JsonNode metrics = rules.get(2);
        assertEquals("monitoring", metrics.path("from").get(0).path("namespaceSelector").path("matchLabels")
                .path("kubernetes.io/metadata.name").asText());
        assertEquals(List.of(9249), ports(metrics));
    }

    @Test
    void agent_admitsPrometheusOnItsMetricsPortOnly() {
        Manifests m = Charts.render(ValueSet.FULL);
        JsonNode policy = m.named("NetworkPolicy", AGENT);
        assertSelects(policy, m.named("Deployment", AGENT).path("spec").path("template").path("metadata").path("labels"));
        JsonNode rules = policy.path("spec").path("ingress");
        assertEquals(1, rules.size(), rules.toString());
        assertEquals("prometheus", rules.get(0).path("from").get(0).path("podSelector").path("matchLabels")
                .path("app.kubernetes.io/name").asText());
        assertEquals(List.of(9400), ports(rules.get(0)));
    }

    @Test
    void console_admitsTheIngressControllerOnItsPortOnly() {
        Manifests m = Charts.render(ValueSet.FULL);
        JsonNode policy = m.named("NetworkPolicy", UI);
        assertSelects(policy, m.named("Deployment", UI).path("spec").path("template").path("metadata").path("labels"));
        JsonNode rules = policy.path("spec").path("ingress");
        assertEquals(1, rules.size(), rules.toString());
        assertEquals("ingress-nginx", rules.get(0).path("from").get(0).path("namespaceSelector").path("matchLabels")
                .path("kubernetes.io/metadata.name").asText());
        assertEquals(List.of(8642), ports(rules.get(0)));
    }

    @Test
    void emptyPeerLists_admitNoOne_neverEveryone(@TempDir Path dir) throws Exception {
        Path noOperator = dir.resolve("no-operator.yaml");
        Files.writeString(noOperator, "networkPolicy: {flinkOperatorFrom: []}\n");
        Manifests m = Manifests.parse(Charts.template(ValueSet.DEFAULT,
                Map.of("networkPolicy.enabled", true, "ui.enabled", true), noOperator));
        assertEquals(3, m.all("NetworkPolicy").size());
        assertEquals(0, m.named("NetworkPolicy", AGENT).path("spec").path("ingress").size());
        assertTrue(m.named("NetworkPolicy", AGENT).path("spec").path("ingress").isArray(),
                "an empty ingress list (deny all), not a missing one");
        assertEquals(0, m.named("NetworkPolicy", UI).path("spec").path("ingress").size());
        assertEquals(1, m.named("NetworkPolicy", JOB).path("spec").path("ingress").size(), "the Flink pods' own rule only");
        for (JsonNode policy : m.all("NetworkPolicy")) {
            assertEquals(List.of("Ingress"), Manifests.strings(policy.path("spec").path("policyTypes")));
            for (JsonNode rule : policy.path("spec").path("ingress")) {
                assertFalse(rule.path("from").isEmpty(), "a rule without 'from' admits every source: " + policy);
            }
        }
    }

    /** Nothing of the chart is reachable from outside the cluster unless the values say so. */
    @ParameterizedTest
    @EnumSource(ValueSet.class)
    void nothingIsExposedBeyondTheCluster_theFlinkRestApiIncluded(ValueSet set) {
        Manifests m = Charts.render(set);
        assertTrue(m.all("Ingress").isEmpty());
        for (JsonNode service : m.all("Service")) {
            assertEquals("ClusterIP", service.path("spec").path("type").asText(), service.toString());
        }
        JsonNode flink = m.one("FlinkDeployment").path("spec").path("flinkConfiguration");
        // Unset, Flink's native Kubernetes integration makes the REST Service ClusterIP.
        assertTrue(flink.path("kubernetes.rest-service.exposed.type").isMissingNode(), flink.toString());
    }

    private static void assertSelects(JsonNode policy, JsonNode podLabels) {
        JsonNode selector = policy.path("spec").path("podSelector").path("matchLabels");
        assertFalse(selector.isEmpty(), "an empty selector would select every pod of the namespace");
        selector.properties().forEach(e -> assertEquals(e.getValue(), podLabels.path(e.getKey()),
                () -> policy.path("metadata").path("name").asText() + " selects on " + e + " which its pods lack"));
    }

    private static List<Integer> ports(JsonNode rule) {
        List<Integer> ports = new ArrayList<>();
        for (JsonNode p : rule.path("ports")) {
            assertEquals("TCP", p.path("protocol").asText());
            ports.add(p.path("port").asInt());
        }
        return ports;
    }
}
