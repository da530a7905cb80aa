package io.isowatch.agent.transport;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.codec.BinaryEventCodec;
import io.isowatch.history.codec.BinaryFormatException;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

import java.util.Arrays;

/**
 * Reads the events of a {@link ChronicleHistoryLog} in spool order, from a given position on.
 * Never blocks: {@link #next()} returns null when no further event is complete yet, and a later
 * call sees events appended since.
 *
 * <p>Owned by one thread. Closing the log closes its tailers.
 */
public final class SpoolTailer implements AutoCloseable {

    private final ChronicleHistoryLog log;
    private final ExcerptTailer tailer;
    private final BinaryEventCodec ownCodec = new BinaryEventCodec(new AtomTable());
    private byte[] buffer = new byte[4096];
    private long index;
    private boolean closed;

    SpoolTailer(ChronicleHistoryLog log, ExcerptTailer tailer, long afterIndex) {
        this.log = log;
        this.tailer = tailer;
        try {
            rewind(afterIndex);
        } catch (RuntimeException e) {
            tailer.close();
            throw e;
        }
    }

    /**
     * Positions the tailer so that the next event is the one after {@code afterIndex} (the first
     * in the spool for {@link ChronicleHistoryLog#NO_INDEX}, or for an index older than the oldest
     * retained file).
     *
     * @throws IllegalArgumentException when {@code afterIndex} is not an index of the spool
     */
    public void rewind(long afterIndex) {
        checkOpen();
        long first = log.queue().firstIndex();
        if (afterIndex == ChronicleHistoryLog.NO_INDEX || first == Long.MAX_VALUE || afterIndex < first) {
            tailer.toStart();
            index = afterIndex;
            return;
        }
        moveTo(afterIndex);
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                throw new IllegalStateException("spool " + log.directory() + ": index " + Long.toHexString(afterIndex)
                        + " vanished while positioning");
            }
        }
        index = afterIndex;
    }

    /** Positions the tailer at {@code at}, so that the next event is the one at that index. */
    void moveTo(long at) {
        if (!tailer.moveToIndex(at)) {
            throw new IllegalArgumentException("spool " + log.directory() + " has no event at index "
                    + Long.toHexString(at) + " (first " + Long.toHexString(log.queue().firstIndex()) + ", last "
                    + Long.toHexString(log.queue().lastIndex()) + "); if the spool was deleted, also delete "
                    + log.positionFile());
        }
        index = at;
    }

    /** The next event, decoded with this tailer's own atom table, or null when none is ready. */
    public HistoryEvent next() {
        return next(ownCodec);
    }

    /**
     * The next event decoded with {@code codec} (whose table receives any string atoms), or null
     * when none is ready.
     *
     * @throws CorruptRecordException when the excerpt is not a readable event (damaged, or
     *                                 written by a newer isowatch); the tailer has moved past it,
     *                                 so the next call reads the record after it
     */
    public HistoryEvent next(BinaryEventCodec codec) {
        checkOpen();
        long at;
        int length;
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return null;
            }
            at = dc.index();
            Bytes<?> bytes = dc.wire().bytes();
            length = (int) bytes.readRemaining();
            if (buffer.length < length) {
                buffer = new byte[Math.max(length, buffer.length * 2)];
            }
            bytes.read(buffer, 0, length);
            index = at;
            try {
                return codec.decode(buffer, 0, length);
            } catch (BinaryFormatException e) {
                // Moved past, not rolled back: a reader that stayed before the record would meet it
                // again forever. The caller decides what to do with it (the shipper quarantines it).
                throw new CorruptRecordException(log.directory(), at, Arrays.copyOf(buffer, length), e);
            }
        }
    }

    /**
     * The spool index of the record last read (an event returned, or a corrupt record reported),
     * or the position given when (re)positioned.
     */
    public long index() {
        return index;
    }

    @Override
    public void close() {
        if (!closed) {
            closeQuietly();
            log.forget(this);
        }
    }

    void closeQuietly() {
        if (!closed) {
            closed = true;
            tailer.close();
        }
    }

    private void checkOpen() {
        if (closed || log.isClosed()) {
            throw new IllegalStateException("this tailer of spool " + log.directory() + " is closed");
        }
    }
}
