package io.isowatch.bench;

import one.profiler.AsyncProfiler;
import one.profiler.Counter;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * CPU profile of the benchmark's measurement window with async-profiler (its Linux x64 library
 * travels in the benchmark jar, a dependency of JMH's profiler support). Samples every thread
 * with {@code itimer}, which needs no perf_events permission. Writes {@code PREFIX.collapsed}
 * (folded stacks, for flame graphs or grep) and {@code PREFIX.txt} (the hottest methods, self
 * time, and the top stacks).
 */
final class WindowProfiler {

    private final AsyncProfiler profiler;
    private final Path prefix;

    private WindowProfiler(AsyncProfiler profiler, Path prefix) {
        this.profiler = profiler;
        this.prefix = prefix;
    }

    /** Loads the profiler; null (with a note) when it cannot run here. */
    static WindowProfiler load(Path prefix) {
        try (InputStream lib = WindowProfiler.class.getResourceAsStream("/linux-x64/libasyncProfiler.so")) {
            if (lib == null) {
                System.out.println("# profile: no linux-x64/libasyncProfiler.so in the jar");
                return null;
            }
            Path file = Files.createTempFile("libasyncProfiler", ".so");
            Files.copy(lib, file, StandardCopyOption.REPLACE_EXISTING);
            file.toFile().deleteOnExit();
            return new WindowProfiler(AsyncProfiler.getInstance(file.toString()), prefix);
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            System.out.println("# profile: cannot load async-profiler: " + e);
            return null;
        }
    }

    void start() throws IOException {
        profiler.execute("start,event=itimer,interval=5ms,threads");
        System.out.println("# profiling (async-profiler, itimer 5 ms)");
    }

    void stop() throws IOException {
        profiler.stop();
        Files.writeString(Path.of(prefix + ".collapsed"), profiler.dumpCollapsed(Counter.SAMPLES));
        Files.writeString(Path.of(prefix + ".txt"), profiler.dumpFlat(60) + "\n" + profiler.dumpTraces(30));
        System.out.println("# profile written to " + prefix + ".collapsed and " + prefix + ".txt");
    }
}
