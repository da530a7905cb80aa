package io.isowatch.agentcli;

import io.isowatch.localkafka.InJvmKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code isowatch agent run} shipping to a topic that does not exist, on a real broker: one line
 * naming the topic, the bootstrap servers and the fix within seconds, exit code
 * {@link ExitCodes#UNSHIPPED} with the events left in the spool; once the topic exists, the next
 * run on the spool ships them all and exits 0.
 */
class AgentShipperFaultsIT {

    @TempDir
    Path dir;

    /** Stderr as lines, each with the milliseconds since the writer was made. */
    private static final class TimedLines extends Writer {
        private final long start = System.nanoTime();
        private final StringBuilder pending = new StringBuilder();
        final List<String> lines = new ArrayList<>();
        final List<Long> millis = new ArrayList<>();

        @Override
        public synchronized void write(char[] buf, int off, int len) {
            for (int i = off; i < off + len; i++) {
                if (buf[i] == '\n') {
                    lines.add(pending.toString());
                    millis.add((System.nanoTime() - start) / 1_000_000);
                    pending.setLength(0);
                } else {
                    pending.append(buf[i]);
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    @Test
    void missingTopic_oneClearLineWithinSeconds_exitCode3_thenTheNextRunShipsEverything() {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = "nonexistent.topic." + System.nanoTime();
        Path spool = dir.resolve("spool");
        TimedLines err = new TimedLines();
        StringWriter out = new StringWriter();
        int code = AgentMain.run(new PrintWriter(out, true), new PrintWriter(err, true), "agent", "run",
                "--target", "embedded:serializable", "--duration", "3", "--spool-dir", spool.toString(),
                "--bootstrap-servers", kafka.bootstrapServers(), "--topic", topic, "--drain-timeout", "1s", "-q");

        assertEquals(ExitCodes.UNSHIPPED, code, err.lines.toString());
        List<String> missing = err.lines.stream().filter(l -> l.contains("does not exist")).toList();
        assertTrue(missing.size() >= 1, err.lines.toString());
        String line = missing.get(0);
        long at = err.millis.get(err.lines.indexOf(line));
        System.err.printf("AgentShipperFaultsIT: after %d ms: %s%n", at, line);
        assertTrue(at < 5_000, "within seconds of the start: " + at + " ms");
        assertTrue(line.startsWith("isowatch: shipping stalled: topic '" + topic + "' does not exist on "
                + kafka.bootstrapServers() + ": create it (kafka-topics.sh --bootstrap-server "
                + kafka.bootstrapServers() + " --create --topic " + topic + ")"), line);
        String last = err.lines.get(err.lines.size() - 1);
        assertTrue(last.matches("isowatch: [\\d,]+ event\\(s\\) not shipped to topic '" + topic.replace(".", "\\.")
                + "' at .*: topic .* does not exist .*; they stay in the spool " + spool.toString().replace(".", "\\.")
                + " and ship on the next run on it \\(exit code 3\\)"), last);
        assertEquals(2, missing.size(), "the stall once, the end once, nothing in between: " + err.lines);
        assertTrue(out.toString().contains("not shipped)"), out.toString());

        kafka.createTopic(topic, 1);
        StringWriter err2 = new StringWriter();
        StringWriter out2 = new StringWriter();
        int again = AgentMain.run(new PrintWriter(out2, true), new PrintWriter(err2, true), "agent", "run",
                "--target", "embedded:serializable", "--txns", "100", "--duration", "0", "--spool-dir",
                spool.toString(), "--bootstrap-servers", kafka.bootstrapServers(), "--topic", topic, "-q");
        assertEquals(ExitCodes.VALID, again, err2.toString());
        assertTrue(out2.toString().contains("(0 event(s) not shipped)"), out2.toString());
        assertTrue(!err2.toString().contains("stalled"), err2.toString());
    }
}
