package io.isowatch.agent.transport;

import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes a spool's roll files once they are wholly shipped. Chronicle names files by cycle, and
 * every event of a cycle before the cycle of the stored acknowledged position has been shipped.
 * The file holding the position itself always stays, so a tailer can be positioned after it.
 * Called by the spool with its acknowledgement lock held; not thread-safe on its own.
 */
final class SpoolRetention {

    private static final Logger LOG = LoggerFactory.getLogger(SpoolRetention.class);

    private final SingleChronicleQueue queue;
    private final Path dir;
    private final int keep;
    private int checkedCycle = Integer.MIN_VALUE;

    SpoolRetention(SingleChronicleQueue queue, Path dir, int keep) {
        this.queue = queue;
        this.dir = dir;
        this.keep = keep;
    }

    /**
     * Deletes the files of cycles before that of {@code ack}, except the newest {@code keep} of
     * them. Does the work once per cycle of {@code ack}; a call for the same cycle is free.
     */
    void apply(long ack) {
        if (ack == ChronicleHistoryLog.NO_INDEX || keep == Integer.MAX_VALUE) {
            return;
        }
        int ackCycle = queue.rollCycle().toCycle(ack);
        if (ackCycle <= checkedCycle) {
            return;
        }
        checkedCycle = ackCycle;
        List<Integer> shipped = cyclesBefore(ackCycle);
        int deletable = shipped.size() - keep;
        for (int i = 0; i < deletable; i++) {
            delete(shipped.get(i));
        }
        if (deletable > 0) {
            queue.refreshDirectoryListing();
        }
    }

    /** The cycles that have a file and come before {@code limit}, oldest first. */
    private List<Integer> cyclesBefore(int limit) {
        List<Integer> cycles = new ArrayList<>();
        try {
            int cycle = queue.firstCycle();
            while (cycle != Integer.MIN_VALUE && cycle != Integer.MAX_VALUE && cycle < limit) {
                cycles.add(cycle);
                int next = queue.nextCycle(cycle, TailerDirection.FORWARD);
                if (next <= cycle) {
                    break;
                }
                cycle = next;
            }
        } catch (ParseException e) {
            LOG.warn("Spool {}: cannot list roll files for retention: {}", dir, e.toString());
            cycles.clear();
        }
        return cycles;
    }

    private void delete(int cycle) {
        SingleChronicleQueueStore store = queue.storeForCycle(cycle, queue.epoch(), false, null);
        if (store == null) {
            return;
        }
        File file = store.file();
        queue.closeStore(store);
        try {
            Files.deleteIfExists(file.toPath());
            LOG.debug("Spool {}: deleted shipped roll file {}", dir, file.getName());
        } catch (IOException e) {
            LOG.warn("Spool {}: cannot delete shipped roll file {}: {}", dir, file, e.toString());
        }
    }
}
