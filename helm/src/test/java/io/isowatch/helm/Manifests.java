package io.isowatch.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** The documents of one {@code helm template} output, parsed as JSON trees. */
record Manifests(List<JsonNode> documents) {

    Manifests {
        documents = List.copyOf(documents);
    }

    static Manifests parse(String multiDocumentYaml) {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = Charts.YAML.readerFor(JsonNode.class).readValues(multiDocumentYaml)) {
            while (it.hasNextValue()) {
                JsonNode doc = it.nextValue();
                if (doc != null && doc.isObject() && !doc.isEmpty()) {
                    docs.add(doc);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("helm template produced unparsable YAML", e);
        }
        return new Manifests(docs);
    }

    /** Kinds present, sorted. */
    Set<String> kinds() {
        return documents.stream().map(d -> d.path("kind").asText()).collect(Collectors.toCollection(TreeSet::new));
    }

    List<JsonNode> all(String kind) {
        return documents.stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
    }

    /** The only document of a kind; fails the test if there is not exactly one. */
    JsonNode one(String kind) {
        List<JsonNode> found = all(kind);
        assertEquals(1, found.size(), () -> "documents of kind " + kind + " in " + kinds());
        return found.get(0);
    }

    /** The document of a kind with this name; fails the test if there is none. */
    JsonNode named(String kind, String name) {
        return all(kind).stream().filter(d -> name.equals(d.path("metadata").path("name").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + "/" + name + " in " + kindsAndNames()));
    }

    /** "Kind/name" of every document, sorted, e.g. "Deployment/iw-isowatch-agent". */
    Set<String> kindsAndNames() {
        return documents.stream()
                .map(d -> d.path("kind").asText() + "/" + d.path("metadata").path("name").asText())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The values of a string array node, e.g. container args. */
    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** Turns "--key value" pairs into an ordered map, failing on a dangling key or a repeated one. */
    static LinkedHashMap<String, String> options(List<String> args) {
        LinkedHashMap<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i += 2) {
            String key = args.get(i);
            if (!key.startsWith("--") || i + 1 >= args.size()) {
                throw new AssertionError("not a --key value pair at " + i + " in " + args);
            }
            if (out.put(key.substring(2), args.get(i + 1)) != null) {
                throw new AssertionError("repeated option " + key + " in " + args);
            }
        }
        return out;
    }
}
