package io.isowatch.agent.transport;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child process of {@link SpoolKillTest}: appends events to a spool as fast as it can and,
 * after each append returns, prints {@code ACK <seq>} on stdout. Optionally ships to Kafka at
 * the same time, printing {@code SHIPPED <n>} every 20 ms; then it appends only about 20,000
 * events per second, so that the shipper gets CPU on small machines. It never exits by itself; the test
 * kills it.
 *
 * <p>Usage: {@code SpoolWriterMain SPOOL_DIR AGENT FIRST_SEQ [BOOTSTRAP TOPIC | hold]}; with
 * {@code hold} it appends 100 events and then stops inside an unfinished append.
 */
public final class SpoolWriterMain {

    private SpoolWriterMain() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        String agent = args[1];
        long seq = Long.parseLong(args[2]);
        ChronicleHistoryLog log = ChronicleHistoryLog.open(dir, SpoolOptions.defaults(), new AtomTable(), null);
        PrintStream out = System.out;
        if (args.length == 4 && args[3].equals("hold")) {
            holdAnUnfinishedAppend(log, agent, seq, out);
        }
        boolean throttled = args.length > 3;
        if (throttled) {
            KafkaShipper shipper = KafkaShipper.start(log, args[3], args[4],
                    ShipperOptions.defaults().toBuilder().maxEventsPerRound(1_000).build(), null);
            Thread progress = new Thread(() -> {
                while (true) {
                    long shipped = shipper.shipped();
                    synchronized (out) {
                        out.println("SHIPPED " + shipped);
                        out.flush();
                    }
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            progress.setDaemon(true);
            progress.start();
        }
        out.println("READY");
        out.flush();
        while (true) {
            HistoryEvent e = Events.event(agent, seq);
            log.append(e);
            synchronized (out) {
                out.println("ACK " + seq);
                out.flush();
            }
            seq++;
            if (throttled && seq % 20 == 0) {
                pause(); // about 20,000 events/s: leaves CPU to the shipper on small machines
            }
        }
    }

    /**
     * Appends 100 events, then starts one more excerpt and never finishes it, so that the kill
     * lands inside an append: an incomplete excerpt, and Chronicle's write lock held by a process
     * that is about to die.
     */
    private static void holdAnUnfinishedAppend(ChronicleHistoryLog log, String agent, long first, PrintStream out) {
        for (long seq = first; seq < first + 100; seq++) {
            log.append(Events.event(agent, seq));
            out.println("ACK " + seq);
        }
        ExcerptAppender appender = log.queue().createAppender();
        DocumentContext dc = appender.writingDocument();
        dc.wire().bytes().write(new byte[] {0x49, 0x57, 0x48});
        out.println("HOLDING");
        out.flush();
        while (true) {
            pause();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
