package io.isowatch.cli;

import java.io.StringWriter;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Waits for what a command running on another thread prints. */
final class Printed {

    private Printed() {
    }

    /** The first group of {@code pattern} once {@code out} holds a match; fails after {@code timeout}. */
    static String await(StringWriter out, Pattern pattern, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Matcher m = pattern.matcher(out.toString());
            if (m.find()) {
                return m.groupCount() > 0 ? m.group(1) : m.group();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not printed within " + timeout + ": " + pattern + "\n" + out);
            }
            Thread.sleep(20);
        }
    }
}
