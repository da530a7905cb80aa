package io.isowatch.testkit;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The start of a command line for a second JVM that a fault test kills for real (SIGKILL cannot
 * be had inside one JVM): this JVM's {@code java}, the module flags it was given (Chronicle and
 * Flink need them on Java 17) and a maximum heap. The caller adds the class path and main class,
 * or {@code -jar}.
 */
public final class ChildJvm {

    private ChildJvm() {
    }

    /** {@code java <this JVM's --add-opens/--add-exports/-Dchronicle.* flags> -Xmx<maxHeap>}. */
    public static List<String> command(String maxHeap) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (flag.startsWith("--add-opens") || flag.startsWith("--add-exports") || flag.startsWith("-Dchronicle.")) {
                command.add(flag);
            }
        }
        command.add("-Xmx" + maxHeap);
        return command;
    }

    /** {@link #command} plus this JVM's class path and {@code mainClass}: the same code, in a process of its own. */
    public static List<String> command(String maxHeap, Class<?> mainClass) {
        List<String> command = command(maxHeap);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        return command;
    }
}
