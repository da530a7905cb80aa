package io.isowatch.agentcli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent image's jar, {@code target/isowatch-agent.jar}, as the image runs it: it holds no
 * Flink, no RocksDB and not the checker job, and {@code java -jar} on it runs {@code agent run}
 * (with the image's default spool and metrics) and {@code ui}.
 */
class AgentJarIT {

    static Path jar;

    @BeforeAll
    static void locate() {
        jar = Paths.get(System.getProperty("isowatch.agent.jar", "target/isowatch-agent.jar"));
        assertTrue(Files.isRegularFile(jar), "run after package: " + jar.toAbsolutePath());
    }

    @Test
    void jar_holdsNoFlinkNoRocksDbAndNotTheJob() throws IOException {
        List<String> offending = new ArrayList<>();
        int classes = 0;
        try (JarFile j = new JarFile(jar.toFile())) {
            for (String name : j.stream().map(e -> e.getName()).toList()) {
                String lower = name.toLowerCase(Locale.ROOT);
                if (lower.startsWith("org/apache/flink/") || lower.contains("rocksdb")
                        || lower.startsWith("io/isowatch/job/") || lower.startsWith("io/isowatch/cli/")) {
                    offending.add(name);
                }
                classes += name.endsWith(".class") ? 1 : 0;
            }
            assertEquals(AgentMain.class.getName(), j.getManifest().getMainAttributes().getValue("Main-Class"));
            assertTrue(j.getEntry("io/isowatch/agentcli/AgentRunCommand.class") != null, "the agent's command");
            assertTrue(j.getEntry("io/isowatch/ui/server/ConsoleServer.class") != null, "the console");
        }
        assertTrue(classes > 1_000, "a shaded jar with the dependencies: " + classes + " classes");
        assertEquals(List.of(), offending.subList(0, Math.min(20, offending.size())),
                offending.size() + " entries of Flink, RocksDB, the job or the full launcher");
    }

    @Test
    void agentRun_theImagesDefaultsForTwoSeconds_spoolsAndExitsZero(@TempDir Path dir) throws Exception {
        // The Dockerfile's CMD, with a time limit and any free metrics port.
        Result r = java(dir, "agent", "run", "--target", "embedded:serializable", "--spool-dir",
                dir.resolve("spool").toString(), "--duration", "2", "--metrics-port", "0");
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertTrue(r.out().contains("transactions in"), r.out());
        assertTrue(r.out().contains("spool: " + dir.resolve("spool")), r.out());
        assertTrue(r.err().contains("metrics at http://127.0.0.1:"), r.err());
    }

    @Test
    void uiHelp_andAUsageError_printAsTheFullLauncherDoes(@TempDir Path dir) throws Exception {
        Result help = java(dir, "ui", "--help");
        assertEquals(ExitCodes.VALID, help.code(), help.err());
        assertTrue(help.out().startsWith("Usage: isowatch ui "), help.out());
        Result bad = java(dir, "ui");
        assertEquals(ExitCodes.ERROR, bad.code());
        assertTrue(bad.err().contains("isowatch: give --alerts-file FILE and/or --bootstrap-servers"), bad.err());
        assertTrue(bad.err().contains("Run 'isowatch ui --help' for usage."), bad.err());
    }

    @Test
    void version_isTheBuildsVersion(@TempDir Path dir) throws Exception {
        Result r = java(dir, "--version");
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertEquals("isowatch " + System.getProperty("isowatch.version"), r.out().strip());
    }

    record Result(int code, String out, String err) {
    }

    /** Runs {@code java FLAGS -jar isowatch-agent.jar ARGS} in {@code dir}, with the image's JVM flags. */
    static Result java(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        String flags = System.getProperty("isowatch.jvm.flags", "");
        if (!flags.isBlank()) {
            command.addAll(Arrays.asList(flags.trim().split("\\s+")));
        }
        command.add("-jar");
        command.add(jar.toAbsolutePath().toString());
        command.addAll(List.of(args));
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("still running after 60 s: " + command);
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
