package io.isowatch.helm;

import static io.isowatch.helm.ChartRenderTest.AGENT;
import static io.isowatch.helm.ChartValuesSchemaTest.assertContains;
import static io.isowatch.helm.ChartValuesSchemaTest.rejection;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.isowatch.helm.Charts.ValueSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Several agents recording one history (issue 37, {@code agent.history}): a StatefulSet of
 * {@code agent.replicas} agents, each with its own spool claim, member number and agent id, in
 * place of the single agent's Deployment; the single agent renders as before without it.
 */
class ChartAgentHistoryTest {

    private static final Pattern VARIABLE = Pattern.compile("\\$\\(([A-Z_]+)\\)");

    private static JsonNode container(JsonNode workload) {
        return workload.path("spec").path("template").path("spec").path("containers").get(0);
    }

    private static Map<String, JsonNode> env(JsonNode container) {
        Map<String, JsonNode> env = new HashMap<>();
        container.path("env").forEach(e -> env.put(e.path("name").asText(), e));
        return env;
    }

    @Test
    void fleetValues_renderAStatefulSetOfTheReplicas_insteadOfTheDeploymentAndItsClaim() {
        Manifests m = Charts.render(ValueSet.FLEET);
        assertTrue(m.all("Deployment").stream().noneMatch(d -> d.path("metadata").path("name").asText().equals(AGENT)),
                () -> m.kindsAndNames().toString());
        assertTrue(m.all("PersistentVolumeClaim").stream()
                .noneMatch(c -> c.path("metadata").path("name").asText().equals(AGENT + "-spool")), () -> m.kindsAndNames().toString());
        JsonNode sts = m.named("StatefulSet", AGENT);
        JsonNode spec = sts.path("spec");
        assertEquals(4, spec.path("replicas").asInt());
        assertEquals("Parallel", spec.path("podManagementPolicy").asText(), "agents do not wait for one another");
        assertEquals(AGENT, spec.path("serviceName").asText());
        assertEquals("Retain", spec.path("persistentVolumeClaimRetentionPolicy").path("whenScaled").asText());
        assertEquals("Retain", spec.path("persistentVolumeClaimRetentionPolicy").path("whenDeleted").asText());

        JsonNode claim = spec.path("volumeClaimTemplates").get(0);
        assertEquals(1, spec.path("volumeClaimTemplates").size());
        assertEquals("spool", claim.path("metadata").path("name").asText());
        assertEquals("ReadWriteOnce", claim.path("spec").path("accessModes").get(0).asText());
        assertEquals("5Gi", claim.path("spec").path("resources").path("requests").path("storage").asText());
        // volumeClaimTemplates cannot change after creation: no label that follows the chart's version.
        assertEquals(spec.path("selector").path("matchLabels"), claim.path("metadata").path("labels"));
        JsonNode podSpec = spec.path("template").path("spec");
        assertTrue(podSpec.path("volumes").isMissingNode(), "the claim template names each pod's spool volume");
        JsonNode mount = container(sts).path("volumeMounts").get(0);
        assertEquals("spool", mount.path("name").asText());
        Map<String, String> args = Manifests.options(Manifests.strings(container(sts).path("args")));
        assertEquals(mount.path("mountPath").asText(), args.get("spool-dir"));

        JsonNode service = m.named("Service", AGENT);
        JsonNode podLabels = spec.path("template").path("metadata").path("labels");
        service.path("spec").path("selector").properties().forEach(e ->
                assertEquals(e.getValue(), podLabels.path(e.getKey()), "the metrics Service selects the agents"));
        assertEquals(spec.path("selector").path("matchLabels"), service.path("spec").path("selector"));
    }

    @Test
    void fleetValues_eachAgentIsTheMemberOfItsOrdinal_namedByItsPod() {
        JsonNode container = container(Charts.render(ValueSet.FLEET).named("StatefulSet", AGENT));
        Map<String, String> args = Manifests.options(Manifests.strings(container.path("args")));
        assertEquals("orders", args.get("history"));
        assertEquals("$(ISOWATCH_MEMBER)", args.get("member"));
        assertEquals("$(POD_NAME)", args.get("agent-id"));
        assertEquals("isowatch_orders", args.get("table-prefix"), "extraArgs still follow");

        Map<String, JsonNode> env = env(container);
        assertEquals("metadata.labels['apps.kubernetes.io/pod-index']",
                env.get("ISOWATCH_MEMBER").path("valueFrom").path("fieldRef").path("fieldPath").asText());
        assertEquals("metadata.name", env.get("POD_NAME").path("valueFrom").path("fieldRef").path("fieldPath").asText());
        assertEquals("orders-db-isowatch",
                env.get("ISOWATCH_DB_PASSWORD").path("valueFrom").path("secretKeyRef").path("name").asText());
        // Kubernetes leaves a $(VAR) of an undefined variable as it is: every one must be defined.
        for (String arg : Manifests.strings(container.path("args"))) {
            Matcher v = VARIABLE.matcher(arg);
            while (v.find()) {
                assertTrue(env.containsKey(v.group(1)), arg + " refers to an undefined variable");
            }
        }
    }

    /** The pod is the Deployment's but for its identity: one template for both, so they cannot drift. */
    @Test
    void fleetPods_areTheSingleAgentsPods_butForTheirIdentity() {
        JsonNode single = Charts.render(ValueSet.DEFAULT).named("Deployment", AGENT);
        JsonNode fleet = Charts.render(ValueSet.DEFAULT, Map.of("agent.history", "orders", "agent.replicas", 2))
                .named("StatefulSet", AGENT);
        for (String field : List.of("image", "ports", "readinessProbe", "livenessProbe", "securityContext",
                "volumeMounts", "resources")) {
            assertEquals(container(single).path(field), container(fleet).path(field), field);
        }
        JsonNode singlePod = single.path("spec").path("template").path("spec");
        JsonNode fleetPod = fleet.path("spec").path("template").path("spec");
        assertEquals(singlePod.path("securityContext"), fleetPod.path("securityContext"));
        assertFalse(fleetPod.path("automountServiceAccountToken").asBoolean(true));
        assertEquals(Set.of("POD_NAME", "ISOWATCH_MEMBER"), env(container(fleet)).keySet(), "embedded: no password");

        List<String> singleArgs = Manifests.strings(container(single).path("args"));
        List<String> fleetArgs = Manifests.strings(container(fleet).path("args"));
        int id = singleArgs.indexOf("--agent-id");
        assertEquals(singleArgs.subList(0, id), fleetArgs.subList(0, id), "the same run flags before the identity");
    }

    @Test
    void defaultValues_renderNoStatefulSet_andNoHistoryFlags() {
        Manifests m = Charts.render(ValueSet.DEFAULT);
        assertTrue(m.all("StatefulSet").isEmpty());
        Map<String, String> args = Manifests.options(Manifests.strings(container(m.named("Deployment", AGENT)).path("args")));
        assertFalse(args.containsKey("history") || args.containsKey("member"), args::toString);
        assertEquals(AGENT, args.get("agent-id"));
    }

    @Test
    void replicas_areBounded_andNeedAHistoryBeyondOne() {
        assertContains(rejection(ValueSet.FLEET, Map.of("agent.replicas", 0)), "at '/agent/replicas': minimum: got 0, want 1");
        assertContains(rejection(ValueSet.FLEET, Map.of("agent.replicas", 1001)),
                "at '/agent/replicas': maximum: got 1,001, want 1,000");
        assertEquals(1000, Charts.render(ValueSet.FLEET, Map.of("agent.replicas", 1000)).named("StatefulSet", AGENT)
                .path("spec").path("replicas").asInt(), "members 0 to 999");
        assertContains(rejection(ValueSet.DEFAULT, Map.of("agent.replicas", 3)),
                "agent.replicas is 3, but without agent.history the agent records a history of its own");
    }

    @Test
    void oneAgentsValues_areRefusedWithAHistory_namingTheFix() {
        assertContains(rejection(ValueSet.FLEET, Map.of("agent.agentId", "a1")),
                "agent.agentId (a1) names one agent", "leave agent.agentId empty");
        assertContains(rejection(ValueSet.FLEET, Map.of("agent.spool.existingClaim", "my-claim")),
                "agent.spool.existingClaim (my-claim) is one claim", "leave it empty");
        assertContains(rejection(ValueSet.FLEET, Map.of("agent.history", "or ders")), "at '/agent/history'",
                "does not match pattern");
    }
}
