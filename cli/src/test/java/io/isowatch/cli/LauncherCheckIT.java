package io.isowatch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code ./isowatch check} hands the JVM beyond JAVA_OPTS: the class-data archive the
 * package phase made (cli/pom.xml), from which the checker's classes and picocli's are mapped
 * instead of loaded; and, on two cores, C1 alone for a history of up to 64 MiB.
 */
class LauncherCheckIT {

    private static final Path LAUNCHER = Path.of("..", "isowatch").toAbsolutePath().normalize();
    private static final Path TRAINING_EDN = Path.of("src", "cds", "training.edn").toAbsolutePath();
    private static final Pattern TIER = Pattern.compile("\\bTieredStopAtLevel\\s+=\\s+(\\d+)");

    @Test
    void launcherCheck_mapsTheCheckersClassesFromTheArchiveBuiltWithTheJar(@TempDir Path dir)
            throws IOException, InterruptedException {
        assertTrue(Files.isRegularFile(Path.of("target", "isowatch-cli.jsa")), "package made no archive");
        Path classLog = dir.resolve("classes.log");
        Launch check = launch(dir, "-Xlog:class+load:file=" + classLog, TRAINING_EDN.toString());
        assertEquals(0, check.exit(), check.err());
        assertTrue(check.out().contains("training.edn\ttrue"), check.out());
        List<String> lines = Files.readAllLines(classLog);
        List<String> checker = lines.stream().filter(line -> line.contains(" io.isowatch.checker.IncrementalChecker ")).toList();
        assertEquals(1, checker.size(), "IncrementalChecker loaded once: " + checker);
        assertTrue(checker.get(0).contains("source: shared objects file"), checker.get(0));
        // picocli's classes (class file version 49) only a static archive can hold.
        assertTrue(lines.stream().anyMatch(line -> line.contains(" picocli.CommandLine ") && line.contains("source: shared objects file")),
                "picocli.CommandLine not mapped from the archive");
    }

    @Test
    void launcherCheck_smallHistory_c1AloneOnTwoCoresOnly(@TempDir Path dir) throws IOException, InterruptedException {
        int expected = onlineCores() <= 2 ? 1 : 4;
        assertEquals(expected, tier(launch(dir, "-XX:+PrintFlagsFinal", TRAINING_EDN.toString())));
    }

    @Test
    void launcherCheck_historyOf64MiBOrCompressed_keepsC2(@TempDir Path dir) throws IOException, InterruptedException {
        Path large = dir.resolve("large.jsonl");
        try (RandomAccessFile file = new RandomAccessFile(large.toFile(), "rw")) {
            file.setLength(64L << 20); // sparse: its size is what the launcher looks at
        }
        assertEquals(4, tier(launch(dir, "-XX:+PrintFlagsFinal", large.toString())));

        Path compressed = dir.resolve("training.edn.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(compressed))) {
            Files.copy(TRAINING_EDN, out);
        }
        assertEquals(4, tier(launch(dir, "-XX:+PrintFlagsFinal", compressed.toString())));
    }

    @Test
    void launcherCheck_javaOptsHaveTheLastWordOnTheJit(@TempDir Path dir) throws IOException, InterruptedException {
        assertEquals(4, tier(launch(dir, "-XX:+PrintFlagsFinal -XX:TieredStopAtLevel=4", TRAINING_EDN.toString())));
    }

    private record Launch(int exit, String out, String err) {
    }

    private static Launch launch(Path dir, String javaOpts, String history) throws IOException, InterruptedException {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        ProcessBuilder launch = new ProcessBuilder("bash", LAUNCHER.toString(), "check", "-q", history)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        launch.environment().put("JAVA_OPTS", javaOpts);
        Process check = launch.start();
        assertTrue(check.waitFor(2, TimeUnit.MINUTES), "the check did not end");
        return new Launch(check.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** The JIT's highest tier in the launched JVM, from -XX:+PrintFlagsFinal. */
    private static int tier(Launch launch) {
        Matcher m = TIER.matcher(launch.out());
        assertTrue(m.find(), "no TieredStopAtLevel in the flags printed\n" + launch.err());
        return Integer.parseInt(m.group(1));
    }

    /** The cores the launcher counts. */
    private static int onlineCores() throws IOException, InterruptedException {
        Process getconf = new ProcessBuilder("getconf", "_NPROCESSORS_ONLN").start();
        String cores = new String(getconf.getInputStream().readAllBytes()).trim();
        assertTrue(getconf.waitFor(1, TimeUnit.MINUTES));
        return Integer.parseInt(cores);
    }
}
