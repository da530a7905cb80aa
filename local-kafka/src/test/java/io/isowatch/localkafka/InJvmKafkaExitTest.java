package io.isowatch.localkafka;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A JVM that exits with the shared cluster still running exits with its own status and leaves no
 * cluster directory behind. Before the cluster made its own directory, Kafka's test kit deleted
 * it from a shutdown hook while the broker was stopping, and the broker halted the JVM with exit
 * code 1 — which surefire reports as a failed fork after every test has passed.
 */
class InJvmKafkaExitTest {

    @TempDir
    Path tmp;

    @Test
    void aJvmExitingWithTheSharedClusterRunningExitsCleanlyAndRemovesTheClusterDirectory() throws Exception {
        for (int run = 1; run <= 3; run++) {
            Path out = tmp.resolve("child-" + run + ".log");
            Process child = new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx512m",
                    "-Djava.io.tmpdir=" + tmp,
                    "-cp", System.getProperty("java.class.path"),
                    ExitWithSharedKafkaMain.class.getName())
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            assertTrue(child.waitFor(2, TimeUnit.MINUTES), "the child JVM did not exit within 2 minutes");
            String output = Files.readString(out, StandardCharsets.UTF_8);
            assertTrue(output.contains("running at "), "the child never had a running cluster:\n" + output);
            assertEquals(0, child.exitValue(), "run " + run + ": the child's exit status; its output:\n" + output);
            assertEquals(List.of(), clusterDirectories(), "run " + run + ": cluster directories left behind");
        }
    }

    private List<Path> clusterDirectories() throws IOException {
        try (Stream<Path> entries = Files.list(tmp)) {
            return entries.filter(p -> p.getFileName().toString().contains("kafka-")).toList();
        }
    }
}
