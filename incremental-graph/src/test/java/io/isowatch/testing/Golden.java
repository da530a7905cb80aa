package io.isowatch.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The golden histories: {@code histories/<anomaly>-<shape>.jsonl} beside
 * {@code <same>.expected.json}. Shared by the core's test and the other modules' tests (the core
 * publishes its test classes and resources as a test-jar).
 */
public final class Golden {

    private Golden() {
    }

    /** One golden history and what Elle reports for it. */
    public record Case(String name, Path history, Map<String, Object> expected) {
        @Override
        public String toString() {
            return name;
        }

        @SuppressWarnings("unchecked")
        public List<String> strings(String field) {
            Object v = expected.get(field);
            return v == null ? null : (List<String>) v;
        }

        public Object valid() {
            return expected.get("valid");
        }

        @SuppressWarnings("unchecked")
        public Map<String, List<List<Long>>> cycles() {
            Object v = expected.get("cycles");
            return v == null ? Map.of() : (Map<String, List<List<Long>>>) v;
        }
    }

    /** Every golden history on the classpath, sorted by name. */
    public static List<Case> cases() {
        URL dir = Golden.class.getClassLoader().getResource("histories");
        if (dir == null) {
            throw new IllegalStateException("no histories/ folder on the test classpath");
        }
        try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jsonl"))
                    .sorted()
                    .map(Golden::load)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Case load(Path history) {
        String file = history.getFileName().toString();
        String name = file.substring(0, file.length() - ".jsonl".length());
        Path expected = history.resolveSibling(name + ".expected.json");
        try {
            return new Case(name, history, Json.object(Files.readString(expected)));
        } catch (IOException e) {
            throw new UncheckedIOException("golden history " + file + " has no readable " + expected.getFileName(), e);
        }
    }
}
