package io.isowatch.agentcli;

import io.isowatch.testkit.ChildJvm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * {@code isowatch agent ...} as a separate JVM, as an operator runs it: this JVM's java, class
 * path and module flags (Chronicle needs them), {@link AgentMain} as the main class. Its stderr is
 * read line by line, so a test can wait for a line and then kill the process with SIGKILL.
 */
final class AgentProcess implements AutoCloseable {

    private final Process process;
    private final BufferedReader err;
    private final List<String> errLines = new ArrayList<>();

    private AgentProcess(Process process) {
        this.process = process;
        this.err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
    }

    /** Starts {@code isowatch ARGS}; stdout goes to {@code stdout}. */
    static AgentProcess start(Path stdout, String... args) throws IOException {
        List<String> command = ChildJvm.command("512m", AgentMain.class);
        command.addAll(List.of(args));
        return new AgentProcess(new ProcessBuilder(command).redirectOutput(stdout.toFile()).start());
    }

    /** Reads stderr until a line matches (returned), or fails when the process ends or {@code seconds} pass. */
    String awaitErrLine(Predicate<String> wanted, int seconds) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String line;
        while ((line = err.readLine()) != null) {
            errLines.add(line);
            if (wanted.test(line)) {
                return line;
            }
            if (System.nanoTime() > deadline) {
                break;
            }
        }
        throw new AssertionError("no such line on stderr within " + seconds + " s; got: " + errLines);
    }

    /** SIGKILL (on Unix): no shutdown hook runs, no buffer is flushed. */
    void kill() throws InterruptedException {
        process.toHandle().destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new AssertionError("still alive 10 s after SIGKILL");
        }
    }

    /** Waits for the exit and returns the code, reading the rest of stderr. */
    int await(int seconds) throws Exception {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("still running after " + seconds + " s; stderr: " + errLines);
        }
        for (String line = err.readLine(); line != null; line = err.readLine()) {
            errLines.add(line);
        }
        return process.exitValue();
    }

    /** The stderr lines read so far. */
    List<String> errLines() {
        return List.copyOf(errLines);
    }

    @Override
    public void close() throws IOException {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        err.close();
    }
}
