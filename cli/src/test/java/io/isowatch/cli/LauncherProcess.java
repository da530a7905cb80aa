package io.isowatch.cli;

import io.isowatch.testkit.ChildJvm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code java -jar isowatch-cli.jar ARGS} in a JVM of its own, as an operator runs the launcher:
 * stdout discarded, stderr in a file a test reads as it goes. Separate JVMs share no clock object
 * and no memory, and SIGKILL ends one as a crash would.
 */
record LauncherProcess(Process process, Path errFile) {

    private static final Path JAR = Path.of("target", "isowatch-cli.jar").toAbsolutePath();

    /** Starts the launcher with {@code args} and at most {@code maxHeap} of heap; stderr goes to {@code err}. */
    static LauncherProcess start(String maxHeap, Path err, List<String> args) throws IOException {
        List<String> command = ChildJvm.command(maxHeap);
        command.add("-jar");
        command.add(JAR.toString());
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(err.toFile()).start();
        return new LauncherProcess(p, err);
    }

    /** Everything it has written to stderr so far. */
    String err() {
        try {
            return Files.readString(errFile);
        } catch (IOException e) {
            return "(cannot read " + errFile + ": " + e + ")";
        }
    }

    /** Waits for it to end by itself and returns its exit code; fails after {@code seconds}. */
    int await(long seconds) throws InterruptedException {
        assertTrue(process.waitFor(seconds, TimeUnit.SECONDS), "still running after " + seconds + " s: " + err());
        return process.exitValue();
    }

    /** SIGKILL, as a crash or the OOM killer ends a process: no shutdown hook runs. Returns the exit code. */
    int kill() throws InterruptedException {
        process.destroyForcibly();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the process did not die");
        return process.exitValue();
    }
}
