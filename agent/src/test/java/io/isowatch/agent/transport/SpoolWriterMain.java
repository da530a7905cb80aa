package io.isowatch.agent.transport;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child process of {@link SpoolKillTest}: appends events to a spool as fast as it can and,
 * after each append returns, prints {@code ACK <seq>} on stdout. Optionally ships to Kafka at
 * the same time, printing {@code SHIPPED <n>} every 20 ms. It never exits by itself; the test
 * kills it.
 *
 * <p>Usage: {@code SpoolWriterMain SPOOL_DIR AGENT FIRST_SEQ [BOOTSTRAP TOPIC]}
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
        if (args.length > 3) {
            KafkaShipper shipper = KafkaShipper.start(log, args[3], args[4],
                    ShipperOptions.defaults().withMaxEventsPerRound(1_000), null);
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
        }
    }
}
