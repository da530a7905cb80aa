package io.isowatch.agent.transport;

import io.isowatch.history.AtomTable;
import io.isowatch.history.codec.BinaryEventCodec;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Damaged spool records for fault tests, written into a real spool the way the spool writes its
 * events (one Chronicle document per record, the event's bytes as its content), by a queue of
 * their own, as another process or a bad disk would.
 */
final class CorruptRecords {

    /** The decoder's message for {@link #badSequence}. */
    static final String MALFORMED_VARINT = "malformed varint";

    private CorruptRecords() {
    }

    /**
     * Event {@code seq} of {@code agent} as the spool writes it, but with its sequence number an
     * 11-byte varint: "malformed varint: more than 10 bytes", as a user found in a real spool.
     */
    static byte[] badSequence(String agent, long seq) {
        byte[] good = new BinaryEventCodec(new AtomTable()).encode(Events.event(agent, seq));
        int sequenceAt = BinaryEventCodec.HEADER_SIZE + 1 + agent.getBytes(StandardCharsets.UTF_8).length;
        byte[] bad = new byte[good.length + 11];
        System.arraycopy(good, 0, bad, 0, sequenceAt);
        for (int i = 0; i < 11; i++) {
            bad[sequenceAt + i] = (byte) 0xFF;
        }
        System.arraycopy(good, sequenceAt, bad, sequenceAt + 11, good.length - sequenceAt);
        return bad;
    }

    /** Appends {@code bytes} as one record to the spool in {@code dir}; returns its index. */
    static long append(Path dir, byte[] bytes) {
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(dir).rollCycle(RollCycles.FAST_HOURLY).build();
             ExcerptAppender appender = queue.createAppender()) {
            try (DocumentContext dc = appender.writingDocument()) {
                dc.wire().bytes().write(bytes);
            }
            return appender.lastIndexAppended();
        }
    }
}
