package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import io.isowatch.testing.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./isowatch check} on input that used to crash it (issue 35): a read of thousands to a
 * million elements nobody appended, which made a finding of the whole read per element, and a
 * heap too small for the history. Each runs the real launcher in its own process, and checks the
 * exit code, that stderr holds nothing or the one line promised, and the time taken.
 */
class CheckBadInputIT {

    private static final Path LAUNCHER = Path.of("..", "isowatch").toAbsolutePath().normalize();
    private static final String OUT_OF_MEMORY = "isowatch check: out of memory checking %s (heap 16 MB); "
            + "give it more with JAVA_OPTS=-Xmx64m";

    @Test
    void check_readOfTenThousandElementsNobodyAppended_isInvalid_inSeconds(@TempDir Path dir)
            throws IOException, InterruptedException {
        Path history = garbageRead(dir, 10_000);

        Launch text = launch(dir, "-Xmx256m", history);
        Launch json = launch(dir, "-Xmx256m", history, "--format", "json");

        assertEquals(ExitCodes.INVALID, text.exit(), text.err());
        assertEquals("", text.err());
        assertTrue(text.out().contains("garbage-read: T1 read an element no transaction appended"), text.out());
        assertTrue(text.took().compareTo(Duration.ofSeconds(20)) < 0, text.took()::toString);
        assertEquals(ExitCodes.INVALID, json.exit(), json.err());
        assertEquals("", json.err());
        @SuppressWarnings("unchecked")
        Map<String, List<Object>> anomalies = (Map<String, List<Object>>) Json.object(json.out().trim()).get("anomalies");
        assertEquals(8, anomalies.get("garbage-read").size(), "the reader's first eight elements");
    }

    @Test
    void check_readOfAMillionElementsNobodyAppended_isInvalid_inSecondsAndAQuarterGigabyte(@TempDir Path dir)
            throws IOException, InterruptedException {
        Path history = garbageRead(dir, 1_000_000);

        Launch check = launch(dir, "-Xmx256m", history);

        assertEquals(ExitCodes.INVALID, check.exit(), check.err());
        assertEquals("", check.err());
        assertTrue(check.took().compareTo(Duration.ofSeconds(30)) < 0, check.took()::toString);
        assertTrue(check.out().contains(" ... 999900 more ... "), "long reads are explained cut short");
        assertTrue(check.out().length() < 100_000, () -> check.out().length() + " characters printed");
    }

    @Test
    void check_outOfMemory_exits255_withOneLineNamingTheHeapAndHowToRaiseIt(@TempDir Path dir)
            throws IOException, InterruptedException {
        Path history = garbageRead(dir, 1_000_000);

        Launch check = launch(dir, "-Xmx16m", history);

        assertEquals(ExitCodes.ERROR, check.exit(), check.err());
        assertEquals(String.format(OUT_OF_MEMORY, history) + "\n", check.err());
        assertEquals("", check.out());
    }

    @Test
    void check_outOfMemory_withJavaOptsThatEndTheJvmOnIt_stillExits255WithTheLine(@TempDir Path dir)
            throws IOException, InterruptedException {
        Path history = garbageRead(dir, 1_000_000);

        Launch exit = launch(dir, "-Xmx16m -XX:+ExitOnOutOfMemoryError", history);
        Launch crash = launch(dir, "-Xmx16m -XX:+CrashOnOutOfMemoryError", history);

        for (Launch check : List.of(exit, crash)) {
            assertEquals(ExitCodes.ERROR, check.exit(), check.err());
            assertEquals(String.format(OUT_OF_MEMORY, history) + "\n", check.err());
        }
    }

    /** One ok transaction that reads key 1 as [1 .. length]; nobody appends to it. */
    private static Path garbageRead(Path dir, int length) throws IOException {
        Path file = dir.resolve("garbage-read-" + length + ".jsonl");
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            out.write("{\"index\":0,\"time\":0,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",1,null]]}\n");
            out.write("{\"index\":1,\"time\":1,\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",1,[");
            for (int e = 1; e <= length; e++) {
                out.write(e == 1 ? "1" : "," + e);
            }
            out.write("]]]}\n");
        }
        return file;
    }

    private record Launch(int exit, String out, String err, Duration took) {
    }

    private static Launch launch(Path dir, String javaOpts, Path history, String... flags)
            throws IOException, InterruptedException {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        List<String> command = new ArrayList<>(List.of("bash", LAUNCHER.toString(), "check", "-q"));
        command.addAll(List.of(flags));
        command.add(history.toString());
        ProcessBuilder launch = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        launch.environment().put("JAVA_OPTS", javaOpts);
        long start = System.nanoTime();
        Process check = launch.start();
        assertTrue(check.waitFor(2, TimeUnit.MINUTES), "the check did not end");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        return new Launch(check.exitValue(), Files.readString(out), Files.readString(err), took);
    }
}
