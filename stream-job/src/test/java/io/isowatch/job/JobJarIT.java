package io.isowatch.job;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.spi.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The job jar a Flink cluster runs, {@code target/isowatch-job.jar}, holds every class the job's
 * own code needs beyond what the cluster provides (Flink, its RocksDB state backend, SLF4J). A
 * library the core uses but the shade's include list forgets would only fail on a real cluster,
 * with a NoClassDefFoundError the first time that code runs (as RoaringBitmap did, reached only
 * under the agent protocol); jdeps finds it here.
 */
class JobJarIT {

    private static final List<String> PROVIDED_BY_THE_CLUSTER = List.of("org.apache.flink.", "org.slf4j.", "org.rocksdb.");

    @Test
    void everyClassTheJobsCodeNeeds_isInTheJar_orProvidedByTheCluster() {
        Path jar = Paths.get(System.getProperty("isowatch.job.jar", "target/isowatch-job.jar"));
        assertTrue(Files.isRegularFile(jar), "run after package: " + jar.toAbsolutePath());
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:class", "-cp", jar.toString(),
                jar.toString());
        assertEquals(0, exit, out.toString());
        Set<String> missing = new TreeSet<>();
        for (String line : out.toString().split("\n")) {
            String[] fields = line.trim().split("\\s+");
            // "io.isowatch.X   -> some.Dependency   not found"
            if (fields.length >= 4 && fields[0].startsWith("io.isowatch.") && line.endsWith("not found")
                    && PROVIDED_BY_THE_CLUSTER.stream().noneMatch(fields[2]::startsWith)) {
                missing.add(fields[2] + " (from " + fields[0] + ")");
            }
        }
        assertTrue(out.toString().contains("io.isowatch.job.CheckerJob"), "jdeps read the job's classes");
        assertEquals(Set.of(), missing, "classes the job needs that neither the jar nor the cluster provides");
    }
}
