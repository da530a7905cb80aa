package io.isowatch.agent.transport;

import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.OpType;
import io.isowatch.history.codec.BinaryEventCodec;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * One pass over every event a spool holds, oldest first, as a restarted agent and
 * {@code isowatch agent export} need it: each event goes to a consumer, each record that cannot be
 * decoded to another (and reading continues after it), and the pass sums up what it saw: the
 * first and last event and the transactions left open, invoked with no completion after.
 *
 * <p>Events are decoded with the spool's own atom table ({@link ChronicleHistoryLog#atoms()}), so
 * their string atoms, if any, mean the same to the spool and to a writer given that table. Call
 * it while nothing appends to the spool (at start, or on a spool no agent runs on). Cost: one
 * decode per event, about a second per few million events; memory: one entry per open
 * transaction.
 */
public final class SpoolScan {

    private SpoolScan() {
    }

    /**
     * What a pass saw.
     *
     * @param first   the oldest readable event retained, or null when none
     * @param last    the newest readable event, or null when none
     * @param events  readable events
     * @param corrupt records that could not be decoded
     * @param maxProcess the largest process id of any event, or -1 when none
     * @param open    per process, the micro-ops of a transaction it invoked and never completed
     *                (the agent died first), in process order
     */
    public record Summary(HistoryEvent first, HistoryEvent last, long events, long corrupt, long maxProcess,
                          Map<Long, List<MicroOp>> open) {

        public Summary {
            open = Collections.unmodifiableMap(new TreeMap<>(open));
        }
    }

    /**
     * Reads the whole spool.
     *
     * @param events  receives each readable event in spool order
     * @param corrupt receives each record that cannot be decoded
     */
    public static Summary read(ChronicleHistoryLog spool, Consumer<HistoryEvent> events,
                               Consumer<CorruptRecordException> corrupt) {
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(corrupt, "corrupt");
        BinaryEventCodec codec = new BinaryEventCodec(spool.atoms());
        Map<Long, List<MicroOp>> open = new TreeMap<>();
        HistoryEvent first = null;
        HistoryEvent last = null;
        long count = 0;
        long bad = 0;
        long maxProcess = -1;
        try (SpoolTailer tailer = spool.tailer(ChronicleHistoryLog.NO_INDEX)) {
            while (true) {
                HistoryEvent event;
                try {
                    event = tailer.next(codec);
                } catch (CorruptRecordException e) {
                    bad++;
                    corrupt.accept(e);
                    continue;
                }
                if (event == null) {
                    break;
                }
                if (first == null) {
                    first = event;
                }
                last = event;
                count++;
                maxProcess = Math.max(maxProcess, event.op().process());
                if (event.op().type() == OpType.INVOKE) {
                    open.put(event.op().process(), event.op().value());
                } else {
                    open.remove(event.op().process());
                }
                events.accept(event);
            }
        }
        return new Summary(first, last, count, bad, maxProcess, open);
    }
}
