package io.isowatch.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.ValidationMessage;
import io.isowatch.helm.Charts.ValueSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The rendered PrometheusRule and KafkaTopic resources against their operators' CRD schemas, kept
 * as test fixtures under src/test/resources/crds (each file names its source). The ServiceMonitor
 * and PodMonitor CRDs are large and not kept; ChartMonitoringTest asserts their fields instead.
 */
class ChartOperatorResourcesCrdTest {

    static final CrdSchema PROMETHEUS_RULE =
            CrdSchema.fromClasspath("crds/monitoring.coreos.com_prometheusrules.yaml", "v1");
    static final CrdSchema KAFKA_TOPIC =
            CrdSchema.fromClasspath("crds/kafkatopics.kafka.strimzi.io-v1beta2.yaml", "v1beta2");

    static List<String> describe(Set<ValidationMessage> violations) {
        return violations.stream().map(ValidationMessage::getMessage).sorted().collect(Collectors.toList());
    }

    @Test
    void prometheusRule_conformsToTheOperatorsCrd() {
        for (Manifests m : List.of(Charts.render(ValueSet.FULL),
                Charts.render(ValueSet.MINIMAL, Map.of("monitoring.prometheusRule.enabled", true)))) {
            Set<ValidationMessage> violations = PROMETHEUS_RULE.validate(m.one("PrometheusRule"));
            assertTrue(violations.isEmpty(), () -> describe(violations).toString());
        }
    }

    @Test
    void prometheusRule_schemaCatchesABadDurationAndAStrayField() {
        ObjectNode rule = (ObjectNode) Charts.render(ValueSet.FULL).one("PrometheusRule").deepCopy();
        ObjectNode lag = (ObjectNode) rule.path("spec").path("groups").get(1).path("rules").get(0);
        lag.put("for", "10 minutes");
        lag.put("severity", "warning");
        List<String> messages = describe(PROMETHEUS_RULE.validate(rule));
        assertEquals(2, messages.size(), messages::toString);
        assertTrue(messages.stream().anyMatch(s -> s.contains(".for") && s.contains("pattern")), messages::toString);
        assertTrue(messages.stream().anyMatch(s -> s.contains("severity")), messages::toString);
    }

    @Test
    void kafkaTopics_conformToStrimzisCrd() {
        List<JsonNode> topics = Charts.render(ValueSet.FULL).all("KafkaTopic");
        assertEquals(3, topics.size());
        for (JsonNode topic : topics) {
            Set<ValidationMessage> violations = KAFKA_TOPIC.validate(topic);
            assertTrue(violations.isEmpty(), () -> topic.path("metadata").path("name") + ": " + describe(violations));
        }
    }

    @Test
    void kafkaTopic_schemaCatchesAQuotedPartitionCount() {
        ObjectNode topic = (ObjectNode) Charts.render(ValueSet.FULL).all("KafkaTopic").get(0).deepCopy();
        ((ObjectNode) topic.path("spec")).put("partitions", "24");
        List<String> messages = describe(KAFKA_TOPIC.validate(topic));
        assertEquals(1, messages.size(), messages::toString);
        assertTrue(messages.get(0).contains("partitions"), messages.get(0));
    }
}
