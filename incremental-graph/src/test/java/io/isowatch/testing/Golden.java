package io.isowatch.testing;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.RegisterOptions;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The golden histories: {@code histories/<anomaly>-<shape>.jsonl} (or {@code .edn}) beside
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

        /** The options the case is checked with: its models, anomalies and, for rw-register, version sources. */
        @SuppressWarnings("unchecked")
        public CheckerOptions checkerOptions() {
            List<String> anomalies = strings("anomalies");
            CheckerOptions options = CheckerOptions.defaults()
                    .toBuilder().consistencyModels(ConsistencyModel.ofNames(strings("consistency-models")))
                    .anomalies(new HashSet<>(anomalies == null ? List.of() : anomalies)).build();
            if ("rw-register".equals(expected.get("workload"))) {
                Map<String, Object> r = (Map<String, Object>) expected.getOrDefault("register-options", Map.of());
                options = options.toBuilder().registers(new RegisterOptions(Boolean.TRUE.equals(r.get("wfr-keys")),
                        Boolean.TRUE.equals(r.get("sequential-keys")),
                                Boolean.TRUE.equals(r.get("linearizable-keys")))).build();
            }
            return options;
        }

        /** The history's ops, in file order, their string atoms in {@code atoms}. */
        public List<Op> ops(AtomTable atoms) {
            List<Op> ops = new ArrayList<>();
            try (HistoryReader reader = HistoryReader.open(history, atoms)) {
                for (Op op = reader.next(); op != null; op = reader.next()) {
                    ops.add(op);
                }
            }
            return ops;
        }

        @SuppressWarnings("unchecked")
        public Map<String, List<List<Long>>> cycles() {
            Object v = expected.get("cycles");
            return v == null ? Map.of() : (Map<String, List<List<Long>>>) v;
        }
    }

    /** Every golden history on the classpath, sorted by name. */
    public static List<Case> cases() {
        try (Stream<Path> files = Files.list(directory())) {
            return files.filter(p -> isHistory(p.getFileName().toString()))
                    .sorted()
                    .map(Golden::load)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path extracted;

    /**
     * The folder holding the golden histories as real files: the test resources themselves, or,
     * when they come from the core's test-jar (other modules' tests), a copy extracted once.
     */
    public static synchronized Path directory() {
        URL dir = Golden.class.getClassLoader().getResource("histories");
        if (dir == null) {
            throw new IllegalStateException("no histories/ folder on the test classpath");
        }
        try {
            if ("file".equals(dir.getProtocol())) {
                return Path.of(dir.toURI());
            }
            if (extracted == null) {
                extracted = extract(dir.toURI());
            }
            return extracted;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path extract(URI jarFolder) throws IOException {
        Path target = Files.createTempDirectory("isowatch-golden");
        try (FileSystem jar = FileSystems.newFileSystem(jarFolder, Map.of());
             Stream<Path> files = Files.list(jar.provider().getPath(jarFolder))) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path copy = target.resolve(p.getFileName().toString());
                Files.copy(p, copy);
                copy.toFile().deleteOnExit();
            }
        }
        target.toFile().deleteOnExit();
        return target;
    }

    /** A history file: JSON lines, or EDN as Jepsen writes {@code history.edn}. */
    private static boolean isHistory(String file) {
        return file.endsWith(".jsonl") || file.endsWith(".edn");
    }

    private static Case load(Path history) {
        String file = history.getFileName().toString();
        String name = file.substring(0, file.lastIndexOf('.'));
        Path expected = history.resolveSibling(name + ".expected.json");
        try {
            return new Case(name, history, Json.object(Files.readString(expected)));
        } catch (IOException e) {
            throw new UncheckedIOException("golden history " + file + " has no readable " + expected.getFileName(), e);
        }
    }
}
