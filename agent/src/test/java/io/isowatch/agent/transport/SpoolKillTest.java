package io.isowatch.agent.transport;

import io.isowatch.history.HistoryEvent;
import io.isowatch.testkit.ChildJvm;
import io.isowatch.localkafka.InJvmKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kills a recording process with SIGKILL mid-run and checks that every event whose append had
 * returned is in the spool, exactly once, in order; then that a restarted shipper delivers them
 * all, duplicates carrying the same identity.
 */
class SpoolKillTest {

    @TempDir
    Path dir;

    /** Starts the child JVM with this JVM's class path and the module flags Chronicle needs. */
    private static Process startChild(String... args) throws IOException {
        List<String> command = ChildJvm.command("256m", SpoolWriterMain.class);
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    /**
     * Reads the child's acknowledgements until {@code killAfter} have arrived and it reports
     * {@code killAfterShipped} events shipped, kills it, and returns every sequence it reported
     * (including lines already in the pipe).
     */
    private static List<Long> runAndKill(Process child, int killAfter, long killAfterShipped) throws Exception {
        List<Long> acked = new ArrayList<>();
        long shipped = 0;
        boolean killed = false;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("SHIPPED ")) {
                    shipped = Long.parseLong(line.substring(8));
                }
                if (line.startsWith("ACK ")) {
                    acked.add(Long.parseLong(line.substring(4)));
                }
                if (!killed && acked.size() >= killAfter && shipped >= killAfterShipped) {
                    killed = true;
                    // SIGKILL on Unix: no shutdown hooks, no flushing. Through the handle,
                    // because Process.destroyForcibly() also closes our end of the pipe and we
                    // want the lines the child had already written.
                    child.toHandle().destroyForcibly();
                }
                if (System.nanoTime() > deadline) {
                    child.destroyForcibly();
                    throw new AssertionError("the child did not report " + killAfter + " events and "
                            + killAfterShipped + " shipped in 30 s");
                }
            }
        }
        assertTrue(child.waitFor(10, TimeUnit.SECONDS), "the child died");
        assertTrue(child.exitValue() != 0, "killed, not exited");
        return acked;
    }

    private static List<HistoryEvent> readSpool(ChronicleHistoryLog log) {
        List<HistoryEvent> events = new ArrayList<>();
        try (SpoolTailer tailer = log.tailer(ChronicleHistoryLog.NO_INDEX)) {
            for (HistoryEvent e = tailer.next(); e != null; e = tailer.next()) {
                events.add(e);
            }
        }
        return events;
    }

    @Test
    void sigkill_midAppend_losesNoAcknowledgedEvent_andTheSpoolStaysAppendable() throws Exception {
        List<Long> acked = runAndKill(startChild(dir.toString(), "killed", "0"), 10_000, 0);
        assertTrue(acked.size() >= 10_000);
        assertEquals(LongStream.range(0, acked.size()).boxed().toList(), acked, "the child reports in order");

        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            List<HistoryEvent> spooled = readSpool(log);
            List<Long> seqs = spooled.stream().map(HistoryEvent::sequence).toList();
            // Every reported event is there, once, in order; at most the one append in flight
            // when the kill landed may be there unreported.
            assertEquals(LongStream.range(0, seqs.size()).boxed().toList(), seqs, "dense, once each, in order");
            assertTrue(seqs.size() >= acked.size() && seqs.size() <= acked.size() + 1,
                    "spooled " + seqs.size() + ", reported " + acked.size());
            for (HistoryEvent e : spooled) {
                assertEquals(Events.event("killed", e.sequence()), e);
            }
            // A restarted agent continues after the last spooled event.
            HistoryEvent last = log.lastEvent();
            log.append(Events.event("killed", last.sequence() + 1));
            assertEquals(seqs.size() + 1, readSpool(log).size());
        }
    }

    @Test
    void sigkill_insideAnUnfinishedAppend_leavesTheSpoolReadableAndAppendable() throws Exception {
        Process child = startChild(dir.toString(), "held", "0", "hold");
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null && !line.equals("HOLDING")) {
                // wait until the child sits inside its unfinished append
            }
            assertEquals("HOLDING", line);
            child.toHandle().destroyForcibly();
        }
        assertTrue(child.waitFor(10, TimeUnit.SECONDS));

        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            assertEquals(LongStream.range(0, 100).boxed().toList(),
                    readSpool(log).stream().map(HistoryEvent::sequence).toList(), "the unfinished excerpt is not an event");
            long start = System.nanoTime();
            log.append(Events.event("held", 100));
            long recoveryMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.err.printf("SpoolKillTest: the first append after the kill took %d ms%n", recoveryMillis);
            List<HistoryEvent> after = readSpool(log);
            assertEquals(101, after.size());
            assertEquals(Events.event("held", 100), after.get(100));
        }
    }

    @Test
    void sigkill_whileShipping_restartedShipperDeliversEveryAcknowledgedEvent() throws Exception {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = KafkaShipperTest.newTopic(kafka, "killed-shipper");
        List<Long> acked = runAndKill(startChild(dir.toString(), "ks", "0", kafka.bootstrapServers(), topic), 10_000, 5_000);

        List<HistoryEvent> spooled;
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, null)) {
            spooled = readSpool(log);
            assertTrue(spooled.size() >= acked.size());
            long alreadyShipped = spooled.size() - log.backlog();
            try (KafkaShipper shipper = KafkaShipper.start(log, kafka.bootstrapServers(), topic, null)) {
                KafkaShipperTest.await("the backlog drains", Duration.ofSeconds(30), () -> log.backlog() == 0);
                assertEquals(spooled.size() - alreadyShipped, shipper.shipped());
            }
        }
        List<Shipped> shipped = Shipped.all(kafka.readTopic(topic, Shipped.covers(KafkaShipperTest.identities(spooled)),
                Duration.ofSeconds(30)));
        Map<String, Shipped> deduped = Shipped.dedupe(shipped);
        for (long seq : acked) {
            assertTrue(deduped.containsKey("ks/" + seq), "acknowledged event ks/" + seq + " reached Kafka");
        }
        Shipped.assertExactly(spooled, deduped);
        Shipped.assertOrderedPerAgent(shipped);
        Map<String, Long> copies = shipped.stream().collect(Collectors.groupingBy(Shipped::identity, Collectors.counting()));
        System.err.printf("SpoolKillTest: %d acknowledged, %d spooled, %d records in Kafka, %d identities sent twice%n",
                acked.size(), spooled.size(), shipped.size(), copies.values().stream().filter(c -> c > 1).count());
    }
}
