package io.isowatch.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.ValidationMessage;
import io.isowatch.helm.Charts.ValueSet;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The rendered FlinkDeployment against the CRD schema of the newest Flink Kubernetes Operator API on
 * this project's Maven mirror (flink-kubernetes-operator-api 1.10.0, which carries its CRDs under
 * META-INF/fabric8/).
 *
 * <p>That operator predates Flink 2: its flinkVersion enum ends at v1_20, while the chart must say
 * v2_2 for the Flink 2.2 image (an operator that reads v1_x applies Flink 1.x configuration
 * handling). So the one violation expected is the flinkVersion enum, and everything else in the
 * resource (job spec, resources, podTemplate as a Pod spec, flinkConfiguration as strings) must
 * conform. An operator that accepts v2_2 is needed to run the chart; docs/kubernetes.md says which.
 */
class ChartFlinkDeploymentCrdTest {

    static final String CRD = "META-INF/fabric8/flinkdeployments.flink.apache.org-v1.yml";

    static CrdSchema schema;

    @BeforeAll
    static void loadCrd() {
        schema = CrdSchema.fromClasspath(CRD, "v1beta1");
    }

    static List<String> messages(Set<ValidationMessage> violations) {
        return violations.stream().map(ValidationMessage::getMessage).sorted().collect(Collectors.toList());
    }

    static List<String> paths(Set<ValidationMessage> violations) {
        return violations.stream().map(v -> v.getInstanceLocation().toString()).sorted().collect(Collectors.toList());
    }

    static ObjectNode renderedFlinkDeployment(ValueSet set) {
        return (ObjectNode) Charts.render(set).one("FlinkDeployment").deepCopy();
    }

    @Test
    void crdOfOperator110_knowsFlinkVersionsUpTo120Only() throws Exception {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(CRD)) {
            JsonNode spec = CrdSchema.openApiSchema(Charts.YAML.readTree(in), "v1beta1").path("properties").path("spec");
            List<String> versions = new ArrayList<>();
            spec.path("properties").path("flinkVersion").path("enum").forEach(v -> versions.add(v.asText()));
            assertEquals("v1_20", versions.get(versions.size() - 1), () -> versions.toString());
            // If this fails, the operator API was upgraded to one that knows Flink 2.x: drop the
            // expected flinkVersion violation below and update docs/kubernetes.md.
            assertFalse(versions.contains("v2_2"), () -> versions.toString());
        }
    }

    @ParameterizedTest
    @EnumSource(ValueSet.class)
    void renderedFlinkDeployment_onlyViolationIsTheFlink2VersionUnknownToOperator110(ValueSet set) {
        Set<ValidationMessage> violations = schema.validate(renderedFlinkDeployment(set));
        assertEquals(List.of("$.spec.flinkVersion"), paths(violations), () -> messages(violations).toString());
        String message = messages(violations).get(0);
        assertTrue(message.contains("enumeration") && message.contains("v1_20"), message);
    }

    @ParameterizedTest
    @EnumSource(ValueSet.class)
    void renderedFlinkDeployment_withAFlinkVersionOperator110Knows_conformsFully(ValueSet set) {
        ObjectNode fd = renderedFlinkDeployment(set);
        ((ObjectNode) fd.path("spec")).put("flinkVersion", "v1_20");
        Set<ValidationMessage> violations = schema.validate(fd);
        assertTrue(violations.isEmpty(), () -> messages(violations).toString());
    }

    /** The validator is live: it catches the mistakes a template could make. */
    @Test
    void validator_rejectsMisspeltFieldsBadEnumsAndNonStringConfiguration() {
        Map<String, java.util.function.Consumer<ObjectNode>> mistakes = Map.of(
                "$.spec.job", spec -> ((ObjectNode) spec.path("job")).put("paralelism", 2),
                "$.spec.job.upgradeMode", spec -> ((ObjectNode) spec.path("job")).put("upgradeMode", "rolling"),
                "$.spec.flinkConfiguration.metrics.reporter.prom.port",
                spec -> ((ObjectNode) spec.path("flinkConfiguration")).put("metrics.reporter.prom.port", 9249),
                "$.spec.podTemplate.spec.containers[0].ports[0].containerPort",
                spec -> ((ObjectNode) spec.path("podTemplate").path("spec").path("containers").get(0)
                        .path("ports").get(0)).put("containerPort", "9249"),
                "$.spec.taskManager.resource.cpu",
                spec -> ((ObjectNode) spec.path("taskManager").path("resource")).put("cpu", "two"));
        mistakes.forEach((path, mistake) -> {
            ObjectNode fd = renderedFlinkDeployment(ValueSet.FULL);
            ((ObjectNode) fd.path("spec")).put("flinkVersion", "v1_20");
            mistake.accept((ObjectNode) fd.path("spec"));
            Set<ValidationMessage> violations = schema.validate(fd);
            assertEquals(List.of(path), paths(violations), () -> path + ": " + messages(violations));
        });
    }

    @Test
    void validator_namesTheUnknownField() {
        ObjectNode fd = renderedFlinkDeployment(ValueSet.DEFAULT);
        ((ObjectNode) fd.path("spec")).put("flinkVersion", "v1_20");
        ((ObjectNode) fd.path("spec")).put("taskManagers", 3);
        List<String> messages = messages(schema.validate(fd));
        assertEquals(1, messages.size(), messages::toString);
        assertTrue(messages.get(0).contains("taskManagers"), messages.get(0));
    }
}
