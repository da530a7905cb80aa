package io.isowatch.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * values.yaml, values.schema.json and the values table of docs/kubernetes.md describe the same keys,
 * and every key in values.yaml carries a comment.
 *
 * <p>A "leaf" is a key whose schema lists no properties of its own: a scalar, a list, or a free-form
 * map such as {@code commonLabels} or {@code job.flinkConfiguration}.
 */
class ChartValuesDocumentationTest {

    static JsonNode values;
    static JsonNode schema;

    @BeforeAll
    static void load() throws Exception {
        values = Charts.YAML.readTree(Charts.chartDir().resolve("values.yaml").toFile());
        schema = new ObjectMapper().readTree(Charts.chartDir().resolve("values.schema.json").toFile());
    }

    /** Leaf paths of the schema ("global" is Helm's, not the chart's). */
    static Set<String> schemaLeaves(JsonNode node, String prefix, Set<String> out) {
        if (!node.has("properties")) {
            out.add(prefix);
            return out;
        }
        for (Map.Entry<String, JsonNode> e : node.path("properties").properties()) {
            if (!(prefix.isEmpty() && e.getKey().equals("global"))) {
                schemaLeaves(e.getValue(), prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), out);
            }
        }
        return out;
    }

    /** Leaf paths of values.yaml, descending only where the schema has properties. */
    static Set<String> valueLeaves(JsonNode value, JsonNode schemaNode, String prefix, Set<String> out) {
        if (!schemaNode.has("properties") || !value.isObject()) {
            out.add(prefix);
            return out;
        }
        for (Map.Entry<String, JsonNode> e : value.properties()) {
            String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            valueLeaves(e.getValue(), schemaNode.path("properties").path(e.getKey()), path, out);
        }
        return out;
    }

    @Test
    void valuesYaml_andSchema_haveTheSameKeys() {
        Set<String> fromSchema = schemaLeaves(schema, "", new TreeSet<>());
        Set<String> fromValues = valueLeaves(values, schema, "", new TreeSet<>());
        assertEquals(fromSchema, fromValues);
        assertTrue(fromValues.size() > 80, () -> "suspiciously few keys: " + fromValues.size());
    }

    @Test
    void schemaProperties_allHaveTypesAndObjectsAreClosed() {
        List<String> problems = new ArrayList<>();
        checkSchema(schema, "(root)", problems);
        assertEquals(List.of(), problems);
    }

    private static void checkSchema(JsonNode node, String path, List<String> problems) {
        if (!node.has("type")) {
            problems.add(path + ": no type");
        }
        if (node.has("properties")) {
            if (!node.path("additionalProperties").isBoolean() || node.path("additionalProperties").asBoolean()) {
                problems.add(path + ": object with properties must set additionalProperties: false");
            }
            for (Map.Entry<String, JsonNode> e : node.path("properties").properties()) {
                checkSchema(e.getValue(), path + "." + e.getKey(), problems);
            }
        }
    }

    private static final Pattern KEY = Pattern.compile("^(\\s*)([A-Za-z0-9_.-]+):");

    @Test
    void everyKeyInValuesYaml_isCommented() throws Exception {
        Set<String> leaves = valueLeaves(values, schema, "", new TreeSet<>());
        List<String> lines = Files.readAllLines(Charts.chartDir().resolve("values.yaml"));
        Deque<Map.Entry<Integer, String>> stack = new ArrayDeque<>();
        List<String> uncommented = new ArrayList<>();
        String previous = "";
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher m = KEY.matcher(line);
            if (m.find() && !line.trim().startsWith("#") && !line.trim().startsWith("-")) {
                int indent = m.group(1).length();
                while (!stack.isEmpty() && stack.peek().getKey() >= indent) {
                    stack.pop();
                }
                String parent = stack.isEmpty() ? "" : stack.peek().getValue();
                String path = parent.isEmpty() ? m.group(2) : parent + "." + m.group(2);
                stack.push(Map.entry(indent, path));
                boolean insideFreeMap = leaves.contains(parent);
                if (!insideFreeMap && !previous.trim().startsWith("#")) {
                    uncommented.add((i + 1) + ": " + path);
                }
            }
            if (!line.isBlank()) {
                previous = line;
            }
        }
        assertEquals(List.of(), uncommented);
    }

    @Test
    void docsValuesTable_listsEveryKeyWithItsDefault() throws Exception {
        Path doc = Charts.repoRoot().resolve("docs/kubernetes.md");
        String text = Files.readString(doc);
        int start = text.indexOf("\n## Values\n");
        assertTrue(start >= 0, "docs/kubernetes.md has no '## Values' section");
        int end = text.indexOf("\n## ", start + 1);
        String section = end < 0 ? text.substring(start) : text.substring(start, end);

        Map<String, String> defaults = new java.util.TreeMap<>();
        Matcher rows = Pattern.compile("(?m)^\\| `([A-Za-z0-9_.]+)` \\| `(.*?)` \\|").matcher(section);
        while (rows.find()) {
            assertTrue(defaults.put(rows.group(1), rows.group(2)) == null, () -> "documented twice: " + rows.group(1));
        }
        Set<String> leaves = valueLeaves(values, schema, "", new TreeSet<>());
        assertEquals(leaves, defaults.keySet(), "keys of the values table in " + doc);
        List<String> wrongDefaults = new ArrayList<>();
        for (String leaf : leaves) {
            JsonNode documented = Charts.YAML.readTree(defaults.get(leaf));
            JsonNode actual = values.at("/" + leaf.replace(".", "/"));
            if (!documented.equals(actual)) {
                wrongDefaults.add(leaf + ": documented " + documented + ", values.yaml " + actual);
            }
        }
        assertEquals(List.of(), wrongDefaults);
    }
}
