package io.isowatch.cli;

import io.isowatch.testkit.InJvmKafka;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;

/** Starts the in-JVM KRaft broker of {@code replay} and {@code demo}. */
final class LocalKafka {

    private LocalKafka() {
    }

    /**
     * A broker of the caller's own, to close, listening on {@code bind} only (broker and
     * controller). Kafka's test kit prints two lines (bootstrap metadata, formatting) to standard
     * output while it formats its log directory; they are dropped, so that the command's output
     * (e.g. replay's JSON) stays clean.
     */
    static synchronized InJvmKafka start(InetAddress bind) {
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try {
            return InJvmKafka.startDedicated(bind);
        } finally {
            System.setOut(stdout);
        }
    }
}
