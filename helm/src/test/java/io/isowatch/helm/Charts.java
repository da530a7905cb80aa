package io.isowatch.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Renders and lints the chart with the helm embedded in helm-java. Renders of the named value
 * sets are cached: the chart does not change during a test run.
 */
final class Charts {

    /** Release name and namespace used for every render; resource names derive from them. */
    static final String RELEASE = "iw";
    static final String NAMESPACE = "checks";
    /** "<release>-<chart>", the prefix of every resource name. */
    static final String FULLNAME = RELEASE + "-isowatch";

    static final YAMLMapper YAML = new YAMLMapper();

    /** The value sets the chart is tested with. */
    enum ValueSet {
        DEFAULT(null),
        MINIMAL("ci/minimal-values.yaml"),
        FULL("ci/full-values.yaml"),
        /** Several agents recording one history: a StatefulSet instead of the agent Deployment. */
        FLEET("ci/fleet-values.yaml");

        final String file;

        ValueSet(String file) {
            this.file = file;
        }
    }

    private static final Map<ValueSet, Manifests> RENDERED = new ConcurrentHashMap<>();

    private Charts() {
    }

    /** The chart directory; Surefire runs with the module directory (helm/) as working directory. */
    static Path chartDir() {
        Path dir = Path.of("isowatch").toAbsolutePath();
        if (!Files.isRegularFile(dir.resolve("Chart.yaml"))) {
            throw new IllegalStateException("no chart at " + dir + "; run the tests from the helm module");
        }
        return dir;
    }

    /** The repository root (the parent of the helm module). */
    static Path repoRoot() {
        return chartDir().getParent().getParent();
    }

    static Manifests render(ValueSet set) {
        return RENDERED.computeIfAbsent(set, s -> render(s, Map.of()));
    }

    /** Renders a value set with extra {@code --set} overrides (not cached). */
    static Manifests render(ValueSet set, Map<String, Object> overrides) {
        return Manifests.parse(template(set, overrides));
    }

    /** {@code helm template}; a failing render throws {@link IllegalStateException} with helm's message. */
    static String template(ValueSet set, Map<String, Object> overrides) {
        return template(set, overrides, null);
    }

    /** As {@link #template(ValueSet, Map)}, with one more values file laid over the value set. */
    static String template(ValueSet set, Map<String, Object> overrides, Path extraValuesFile) {
        TemplateCommand command = new Helm(chartDir()).template().withName(RELEASE).withNamespace(NAMESPACE);
        if (set.file != null) {
            command = command.withValuesFile(chartDir().resolve(set.file));
        }
        if (extraValuesFile != null) {
            command = command.withValuesFile(extraValuesFile);
        }
        for (Map.Entry<String, Object> e : overrides.entrySet()) {
            command = command.set(e.getKey(), e.getValue());
        }
        return command.call();
    }

    /** {@code helm lint --strict} on a chart directory. */
    static LintResult lintStrict(Path chart) {
        return new Helm(chart).lint().strict().call();
    }

    /**
     * A copy of the chart whose values.yaml is the default values overlaid with a value set, because
     * helm-java's lint takes no values file: linting the copy lints the chart as that set renders it.
     */
    static Path chartWithValues(ValueSet set, Path tempDir) {
        try {
            Path copy = tempDir.resolve("isowatch");
            Path source = chartDir();
            try (Stream<Path> files = Files.walk(source)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Path target = copy.resolve(source.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(p, target);
                    }
                }
            }
            JsonNode defaults = YAML.readTree(source.resolve("values.yaml").toFile());
            JsonNode overlay = YAML.readTree(source.resolve(set.file).toFile());
            YAML.writeValue(copy.resolve("values.yaml").toFile(), overlay(defaults.deepCopy(), overlay));
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Helm's merge of a values file over the defaults: maps merge key by key, everything else is replaced. */
    static JsonNode overlay(JsonNode base, JsonNode top) {
        if (!(base instanceof ObjectNode baseObject) || !top.isObject()) {
            return top;
        }
        for (Map.Entry<String, JsonNode> e : top.properties()) {
            JsonNode old = baseObject.get(e.getKey());
            baseObject.set(e.getKey(), old == null ? e.getValue() : overlay(old, e.getValue()));
        }
        return baseObject;
    }
}
