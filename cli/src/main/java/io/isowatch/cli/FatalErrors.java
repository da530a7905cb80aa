package io.isowatch.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.sun.management.HotSpotDiagnosticMXBean;

/**
 * The one line a command prints when the JVM runs out of memory or isowatch fails on a bug,
 * instead of a stack trace: what happened, where, and what to do. A bug's stack trace goes to a
 * file, named in the line, for the report.
 */
final class FatalErrors {

    /** A bug's message is cut to this many characters: it may quote a whole read. */
    private static final int MESSAGE_CHARS = 300;

    private FatalErrors() {
    }

    /**
     * {@code out of memory WHILE (heap 1024 MB); give it more with JAVA_OPTS=-Xmx2g}: twice the
     * heap the JVM had, which the launcher passes on.
     */
    static String outOfMemory(String doing) {
        long megabytes = maxHeapBytes() >> 20;
        return "out of memory " + doing + " (heap " + megabytes + " MB); give it more with JAVA_OPTS=-Xmx"
                + twice(megabytes);
    }

    /** Twice {@code megabytes} as an -Xmx value: whole gigabytes from 1g on, rounded up. */
    static String twice(long megabytes) {
        long next = Math.max(2 * megabytes, 64);
        return next >= 1024 ? (next + 1023) / 1024 + "g" : next + "m";
    }

    /**
     * {@code internal error WHERE: IllegalStateException: MESSAGE; this is a bug in isowatch (stack
     * trace in FILE)}, the stack trace written to a new file in the temporary directory.
     */
    static String bug(String where, Throwable bug) {
        String message = bug.getMessage() == null ? "" : ": " + oneLine(bug.getMessage());
        return "internal error " + where + ": " + bug.getClass().getSimpleName() + message
                + "; this is a bug in isowatch (" + saveStackTrace(bug) + ")";
    }

    private static String oneLine(String s) {
        String line = s.replaceAll("\\s+", " ").trim();
        return line.length() <= MESSAGE_CHARS ? line : line.substring(0, MESSAGE_CHARS) + "...";
    }

    private static String saveStackTrace(Throwable bug) {
        StringWriter trace = new StringWriter();
        bug.printStackTrace(new PrintWriter(trace));
        try {
            Path file = Files.createTempFile("isowatch-bug-", ".txt");
            Files.writeString(file, trace.toString(), StandardCharsets.UTF_8);
            return "stack trace in " + file + "; please attach it to an issue";
        } catch (IOException | RuntimeException e) {
            return "its stack trace could not be saved: " + e.getMessage();
        }
    }

    /** The -Xmx in force (the JVM's MaxHeapSize), or what the runtime reports when that is unknown. */
    private static long maxHeapBytes() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return Long.parseLong(vm.getVMOption("MaxHeapSize").getValue());
        } catch (RuntimeException | LinkageError e) {
            return Runtime.getRuntime().maxMemory();
        }
    }
}
