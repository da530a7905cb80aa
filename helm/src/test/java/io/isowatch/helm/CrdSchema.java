package io.isowatch.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The OpenAPI v3 schema of one version of a CustomResourceDefinition, as a JSON-schema validator.
 *
 * <p>Two adjustments bring plain JSON-schema validation close to what the API server does with
 * strict field validation (kubectl's default since Kubernetes 1.27): every object schema that lists
 * {@code properties} and neither {@code additionalProperties} nor
 * {@code x-kubernetes-preserve-unknown-fields} rejects unknown fields (the API server would prune
 * or reject them, so a misspelt field is lost either way), and the root accepts {@code apiVersion},
 * {@code kind} and {@code metadata}, which the API server adds implicitly. The {@code x-kubernetes-*}
 * extension keywords are dropped after that; {@code x-kubernetes-int-or-string} fields already carry
 * an equivalent {@code anyOf} in the generated CRDs this is used with. Not covered: CEL rules
 * ({@code x-kubernetes-validations}), formats, and anything the operator checks itself at runtime.
 */
final class CrdSchema {

    private final JsonSchema schema;
    private final String source;

    private CrdSchema(JsonSchema schema, String source) {
        this.schema = schema;
        this.source = source;
    }

    /** Loads a CRD from the test classpath and picks the schema of {@code version}. */
    static CrdSchema fromClasspath(String resource, String version) {
        try (InputStream in = CrdSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("CRD " + resource + " is not on the test classpath");
            }
            JsonNode crd = Charts.YAML.readTree(in);
            return new CrdSchema(compile(openApiSchema(crd, version)), resource + " (" + version + ")");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode openApiSchema(JsonNode crd, String version) {
        if (!"CustomResourceDefinition".equals(crd.path("kind").asText())) {
            throw new IllegalArgumentException("not a CustomResourceDefinition: " + crd.path("kind"));
        }
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (version.equals(v.path("name").asText())) {
                return v.path("schema").path("openAPIV3Schema").deepCopy();
            }
        }
        throw new IllegalArgumentException("CRD " + crd.path("metadata").path("name") + " has no version " + version);
    }

    private static JsonSchema compile(JsonNode openApi) {
        ObjectNode root = (ObjectNode) openApi;
        ObjectNode props = root.withObjectProperty("properties");
        props.putIfAbsent("apiVersion", JsonNodeFactory.instance.objectNode().put("type", "string"));
        props.putIfAbsent("kind", JsonNodeFactory.instance.objectNode().put("type", "string"));
        props.putIfAbsent("metadata", JsonNodeFactory.instance.objectNode().put("type", "object"));
        closeAndStrip(root);
        // OpenAPI 3.0 schema objects are closest to draft 4 (e.g. boolean exclusiveMinimum).
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(root);
    }

    private static void closeAndStrip(JsonNode node) {
        if (node instanceof ArrayNode array) {
            array.forEach(CrdSchema::closeAndStrip);
            return;
        }
        if (!(node instanceof ObjectNode object)) {
            return;
        }
        boolean preserveUnknown = object.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        if (object.has("properties") && !object.has("additionalProperties") && !preserveUnknown) {
            object.put("additionalProperties", false);
        }
        List<String> extensions = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            if (e.getKey().startsWith("x-kubernetes-")) {
                extensions.add(e.getKey());
            } else if (e.getKey().equals("properties")) {
                // Property names are not schemas; their values are.
                e.getValue().forEach(CrdSchema::closeAndStrip);
            } else {
                closeAndStrip(e.getValue());
            }
        }
        object.remove(extensions);
    }

    Set<ValidationMessage> validate(JsonNode resource) {
        return schema.validate(resource);
    }

    @Override
    public String toString() {
        return source;
    }
}
