package io.isowatch.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Heap, resident memory and directory sizes of this JVM, for the benchmark's samples. */
final class ResourceProbe {

    private ResourceProbe() {
    }

    /** Heap in use right after a full collection this call requests ({@code System.gc()}), bytes. */
    static long heapAfterFullGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Heap in use after the most recent collection of each heap pool, summed (no GC requested), bytes. */
    static long heapAfterLastGc() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
                sum += pool.getCollectionUsage().getUsed();
            }
        }
        return sum;
    }

    /** Total time spent in garbage collection so far, milliseconds. */
    static long gcMillis() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, gc.getCollectionTime());
        }
        return sum;
    }

    /** A Flink task thread's name ends in its subtask and attempt, e.g. {@code "check-transactions (1/2)#0"}. */
    private static final Pattern TASK_THREAD = Pattern.compile(".*\\(\\d+/\\d+\\)#\\d+$");

    /**
     * CPU time of the job's Flink task threads (source, decoding, the checker operator and the
     * sinks chained to them), nanoseconds: the job's own cost, without the feeder, the broker and
     * RocksDB's native background threads, which the JVM cannot see. Threads that have ended are
     * not counted; task threads live as long as the job.
     */
    static long taskCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isThreadCpuTimeSupported()) {
            return -1;
        }
        long sum = 0;
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null && TASK_THREAD.matcher(t.getThreadName()).matches()) {
                sum += Math.max(0, threads.getThreadCpuTime(t.getThreadId()));
            }
        }
        return sum;
    }

    /** CPU time of the whole process (every JVM thread and native thread), nanoseconds; -1 if unknown. */
    static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** The process's resident set size (heap, RocksDB's native memory, the broker's buffers), bytes. */
    static long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /** Sum of the sizes of the regular files under {@code dir}; 0 when it does not exist. */
    static long directoryBytes(Path dir) {
        for (int attempt = 0; attempt < 3; attempt++) {
            long size = walk(dir);
            if (size >= 0) {
                return size;
            }
        }
        return -1;
    }

    private static long walk(Path dir) {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0; // deleted while walking (a finished checkpoint, a compacted file)
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            return -1;
        }
    }

    static String mb(long bytes) {
        return bytes < 0 ? "?" : String.format("%,.0f", bytes / 1e6);
    }
}
