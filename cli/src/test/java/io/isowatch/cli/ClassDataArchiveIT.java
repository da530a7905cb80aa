package io.isowatch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The package phase archives the classes a check loads (cli/pom.xml), and the launcher hands
 * that archive to the JVM: a check run by {@code ./isowatch} maps the checker's classes, and
 * picocli's, from it instead of loading them from the jar.
 */
class ClassDataArchiveIT {

    private static final Path LAUNCHER = Path.of("..", "isowatch").toAbsolutePath().normalize();
    private static final Path TRAINING_EDN = Path.of("src", "cds", "training.edn").toAbsolutePath();

    @Test
    void launcherCheck_mapsTheCheckersClassesFromTheArchiveBuiltWithTheJar(@TempDir Path dir)
            throws IOException, InterruptedException {
        assertTrue(Files.isRegularFile(Path.of("target", "isowatch-cli.jsa")), "package made no archive");
        Path classLog = dir.resolve("classes.log");
        ProcessBuilder launch = new ProcessBuilder("bash", LAUNCHER.toString(), "check", "-q", TRAINING_EDN.toString())
                .redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve("err.txt").toFile());
        launch.environment().put("JAVA_OPTS", "-Xlog:class+load:file=" + classLog);
        Process check = launch.start();
        assertTrue(check.waitFor(2, TimeUnit.MINUTES), "the check did not end");
        assertEquals(0, check.exitValue(), Files.readString(dir.resolve("err.txt")));
        assertTrue(Files.readString(dir.resolve("out.txt")).contains("training.edn\ttrue"),
                Files.readString(dir.resolve("out.txt")));
        List<String> checker = Files.readAllLines(classLog).stream()
                .filter(line -> line.contains(" io.isowatch.checker.IncrementalChecker "))
                .toList();
        assertEquals(1, checker.size(), "IncrementalChecker loaded once: " + checker);
        assertTrue(checker.get(0).contains("source: shared objects file"), checker.get(0));
        // picocli's classes (class file version 49) only a static archive can hold.
        assertTrue(Files.readAllLines(classLog).stream()
                .anyMatch(line -> line.contains(" picocli.CommandLine ") && line.contains("source: shared objects file")),
                "picocli.CommandLine not mapped from the archive");
    }
}
