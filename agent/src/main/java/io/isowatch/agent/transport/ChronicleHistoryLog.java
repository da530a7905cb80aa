package io.isowatch.agent.transport;

import io.isowatch.agent.metrics.AgentMetrics;
import io.isowatch.agent.recorder.EventLog;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.OpAtoms;
import io.isowatch.history.codec.BinaryEventCodec;
import net.openhft.chronicle.core.time.SystemTimeProvider;
import net.openhft.chronicle.core.time.TimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferOverflowException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The agent's durable spool: a Chronicle Queue on local disk holding one
 * {@link BinaryEventCodec binary event} per excerpt, tailed by the {@link KafkaShipper}.
 *
 * <p><b>Durability.</b> {@link #append} returns once the excerpt is complete in the
 * memory-mapped queue file, so killing the process (even with SIGKILL) loses no event whose
 * append returned: the bytes are in the kernel's page cache and reach the file. A power loss or
 * kernel crash can lose the last seconds, as with any un-fsynced write. Appending never touches
 * the network, so a Kafka outage only grows the spool.
 *
 * <p><b>Concurrency.</b> Chronicle appenders must be used by one thread at a time. Rather than
 * one appender per thread (which would stay mapped for the life of every thread that ever
 * appended), the log encodes on the caller's thread into a per-thread buffer and then copies the
 * bytes into a single appender under a lock; the critical section is a memory copy of a few
 * dozen bytes. Excerpt order is the order in which appends took the lock. All public methods are
 * thread-safe; each {@link SpoolTailer} belongs to one thread.
 *
 * <p><b>Acknowledgement and retention.</b> The shipper calls {@link #acknowledge} with the index
 * of the last event Kafka acknowledged (always a prefix of the spool). The position advances in
 * memory at once, so {@link #backlog()} is exact, and is written to disk (atomically, fsynced)
 * at most every {@link SpoolOptions#positionSyncInterval()} and on {@link #close()}. After each
 * write, roll files that lie entirely before the written position are deleted, keeping the
 * newest {@link SpoolOptions#keepShippedRollFiles()} of them. Deletion follows only the
 * position on disk, so a restarted shipper always finds the event it resumes after.
 *
 * <p><b>Atoms.</b> String keys and values are written as their text, so the table that made
 * them must be given to {@link #open(Path, SpoolOptions, AtomTable, AgentMetrics)}. Encoding
 * reads that table while holding its monitor; a caller that interns strings while other threads
 * append must intern under the same monitor ({@code synchronized (atoms)}). Integer-only
 * histories never touch the table.
 */
public final class ChronicleHistoryLog implements EventLog {

    /** The position before the first event: nothing acknowledged, or a tailer at the start. */
    public static final long NO_INDEX = -1;

    private static final Logger LOG = LoggerFactory.getLogger(ChronicleHistoryLog.class);
    private static final int INITIAL_BUFFER = 4096;

    private final Path dir;
    private final SpoolOptions options;
    private final AtomTable atoms;
    private final SingleChronicleQueue queue;
    private final ExcerptAppender appender;
    private final ReentrantLock appendLock = new ReentrantLock();
    private final ThreadLocal<Encoder> encoders;
    private final ShippedPosition position;
    private final Object ackLock = new Object();
    private final AtomicLong backlog = new AtomicLong();
    private final Set<SpoolTailer> tailers = ConcurrentHashMap.newKeySet();
    private final Set<KafkaShipper> shippers = ConcurrentHashMap.newKeySet();
    private final long syncIntervalNanos;
    private final SpoolRetention retention;
    private final SpoolQuarantine quarantine;
    private final AgentMetrics metrics;

    private volatile long acknowledged;
    private volatile boolean closed;
    // guarded by ackLock
    private long persisted;
    private long lastSyncNanos;

    /** A thread's scratch space for encoding outside the append lock. */
    private static final class Encoder {
        final BinaryEventCodec codec;
        byte[] buffer = new byte[INITIAL_BUFFER];

        Encoder(AtomTable atoms) {
            codec = new BinaryEventCodec(atoms);
        }
    }

    private ChronicleHistoryLog(Path dir, SpoolOptions options, AtomTable atoms, AgentMetrics metrics,
                                TimeProvider time) {
        this.dir = dir;
        this.options = options;
        this.atoms = atoms;
        this.encoders = ThreadLocal.withInitial(() -> new Encoder(atoms));
        this.position = new ShippedPosition(dir);
        this.quarantine = new SpoolQuarantine(dir);
        this.metrics = metrics;
        this.syncIntervalNanos = options.positionSyncInterval().toNanos();
        this.queue = SingleChronicleQueueBuilder.binary(dir)
                .rollCycle(options.rollCycle())
                .timeProvider(time)
                .build();
        this.retention = new SpoolRetention(queue, dir, options.keepShippedRollFiles());
        try {
            this.appender = queue.createAppender();
            // Used by many threads, one at a time under appendLock.
            appender.singleThreadedCheckDisabled(true);
            long ack = position.read();
            this.acknowledged = ack;
            this.persisted = ack;
            this.lastSyncNanos = System.nanoTime();
            backlog.set(countAfter(ack));
            retention.apply(ack);
        } catch (RuntimeException e) {
            queue.close();
            throw e;
        }
        if (metrics != null) {
            metrics.spoolBacklog(this::backlog);
        }
        LOG.info("Spool {} opened: {} event(s) not yet shipped", dir, backlog.get());
    }

    /** Opens (creating if needed) the spool in {@code dir} with default options and integer-only atoms. */
    public static ChronicleHistoryLog open(Path dir, AgentMetrics metrics) {
        return open(dir, SpoolOptions.defaults(), new AtomTable(), metrics);
    }

    /**
     * Opens (creating if needed) the spool in {@code dir}.
     *
     * @param atoms   the table the recorded events' string atoms come from
     * @param metrics receives the backlog gauge; may be null
     * @throws UncheckedIOException  when the directory cannot be created
     * @throws IllegalStateException when the stored shipped position is unreadable
     */
    public static ChronicleHistoryLog open(Path dir, SpoolOptions options, AtomTable atoms, AgentMetrics metrics) {
        return open(dir, options, atoms, metrics, SystemTimeProvider.INSTANCE);
    }

    /** As {@link #open(Path, SpoolOptions, AtomTable, AgentMetrics)}, with Chronicle's clock given (tests roll files with it). */
    static ChronicleHistoryLog open(Path dir, SpoolOptions options, AtomTable atoms, AgentMetrics metrics,
                                    TimeProvider time) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(atoms, "atoms");
        Objects.requireNonNull(time, "time");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the spool directory " + dir + ": " + e.getMessage(), e);
        }
        return new ChronicleHistoryLog(dir, options, atoms, metrics, time);
    }

    /**
     * Appends one event; on return it survives the death of this process.
     *
     * @throws IllegalStateException    when the log is closed
     * @throws IllegalArgumentException when a string atom is unknown to the log's table
     */
    @Override
    public void append(HistoryEvent event) {
        appendAndGetIndex(event);
    }

    /** As {@link #append}, returning the event's spool index. */
    public long appendAndGetIndex(HistoryEvent event) {
        Encoder encoder = encoders.get();
        int length = encode(encoder, event);
        appendLock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the spool " + dir + " is closed; cannot append event "
                        + event.source() + "/" + event.sequence());
            }
            try (DocumentContext dc = appender.writingDocument()) {
                dc.wire().bytes().write(encoder.buffer, 0, length);
            }
            backlog.incrementAndGet();
            return appender.lastIndexAppended();
        } finally {
            appendLock.unlock();
        }
    }

    private int encode(Encoder encoder, HistoryEvent event) {
        if (OpAtoms.stringCount(event.op()) == 0) {
            return encodeInto(encoder, event);
        }
        synchronized (atoms) {
            return encodeInto(encoder, event);
        }
    }

    private static int encodeInto(Encoder encoder, HistoryEvent event) {
        try {
            return encoder.codec.encode(event, encoder.buffer, 0);
        } catch (BufferOverflowException e) {
            encoder.buffer = new byte[Math.max(encoder.buffer.length * 2, encoder.codec.encodedSize(event))];
            return encoder.codec.encode(event, encoder.buffer, 0);
        }
    }

    /**
     * Opens a tailer positioned after {@code afterIndex}: its first event is the one following
     * that index, or the first in the spool for {@link #NO_INDEX} or an index older than the
     * oldest retained file.
     *
     * @throws IllegalArgumentException when the index is not in the spool
     */
    public SpoolTailer tailer(long afterIndex) {
        checkOpen();
        SpoolTailer tailer = new SpoolTailer(this, queue.createTailer(), afterIndex);
        tailers.add(tailer);
        return tailer;
    }

    /** Opens a tailer positioned after the acknowledged index: at the first event not yet shipped. */
    public SpoolTailer tailerFromAcknowledged() {
        return tailer(acknowledged);
    }

    /**
     * Records that Kafka acknowledged every event up to and including {@code index}. Older or
     * equal indices are ignored. Persists the position when the sync interval has passed, then
     * applies retention.
     *
     * @throws IllegalArgumentException when {@code index} is past the last appended event
     */
    public void acknowledge(long index) {
        synchronized (ackLock) {
            checkOpen();
            long previous = acknowledged;
            if (index <= previous) {
                return;
            }
            long last = queue.lastIndex();
            if (index > last) {
                throw new IllegalArgumentException("cannot acknowledge index " + Long.toHexString(index)
                        + ": the spool's last event is " + Long.toHexString(last));
            }
            long events = countBetween(previous, index);
            acknowledged = index;
            backlog.addAndGet(-events);
            if (System.nanoTime() - lastSyncNanos >= syncIntervalNanos) {
                syncPosition();
            }
        }
    }

    /** Writes the acknowledged position to disk now (if it moved) and applies retention. */
    public void syncAcknowledged() {
        synchronized (ackLock) {
            checkOpen();
            syncPosition();
        }
    }

    /** Called with ackLock held. */
    private void syncPosition() {
        long ack = acknowledged;
        lastSyncNanos = System.nanoTime();
        if (ack == persisted) {
            return;
        }
        position.write(ack);
        persisted = ack;
        retention.apply(ack);
    }

    /** The index of the last event Kafka acknowledged, or {@link #NO_INDEX}. */
    public long acknowledgedIndex() {
        return acknowledged;
    }

    /** The index of the last event appended (by any process), or {@link #NO_INDEX} when empty. */
    public long lastIndex() {
        checkOpen();
        long last = queue.lastIndex();
        return last < 0 ? NO_INDEX : last;
    }

    /** Events appended but not yet acknowledged: the gauge exported as the spool backlog. */
    public long backlog() {
        return backlog.get();
    }

    /**
     * The last event in the spool, or null when it is empty. A restarted recorder continues its
     * sequence after this event's, so identities are never reused. Its string atoms, if any,
     * are in the spool's table ({@link #atoms()}).
     *
     * @throws CorruptRecordException when the last record cannot be decoded ({@code SpoolScan}
     *                                reads past such records)
     */
    public HistoryEvent lastEvent() {
        long last = lastIndex();
        if (last == NO_INDEX) {
            return null;
        }
        try (SpoolTailer t = new SpoolTailer(this, queue.createTailer(), NO_INDEX)) {
            t.moveTo(last);
            synchronized (atoms) { // decoding interns its strings, as appending threads do
                return t.next(new BinaryEventCodec(atoms));
            }
        }
    }

    /**
     * The table the spool's string atoms come from: what an event's string atoms mean when
     * {@link SpoolScan} reads them, and what a writer of those events must be given.
     */
    public AtomTable atoms() {
        return atoms;
    }

    /** The spool directory. */
    public Path directory() {
        return dir;
    }

    /** The options the spool was opened with. */
    public SpoolOptions options() {
        return options;
    }

    /**
     * Sets a record that cannot be decoded aside: appends its index, the error and its bytes to
     * the spool's {@value SpoolQuarantine#FILE_NAME}, counts it, and logs one line naming the
     * index and the error. A record already set aside (met again after a failed round or a
     * restart) is neither written nor counted again. Readers skip such records; the shipper's
     * acknowledged position moves past them like past any shipped event.
     *
     * @return true when the record was not in the quarantine yet
     */
    public boolean quarantine(CorruptRecordException record) {
        if (!quarantine.add(record)) {
            return false;
        }
        if (metrics != null) {
            metrics.recordQuarantined();
        }
        LOG.warn("Spool {}: record at index {} cannot be decoded ({}); set aside in {}, shipping continues after it",
                dir, Long.toHexString(record.index()), "byte " + record.errorOffset() + ": " + record.reason(),
                quarantine.file());
        return true;
    }

    /** Records set aside as undecodable, over every run of this spool. */
    public int quarantined() {
        return quarantine.size();
    }

    /** The file listing the records set aside as undecodable (absent while there are none). */
    public Path quarantineFile() {
        return quarantine.file();
    }

    /** The file holding the acknowledged position. */
    public Path positionFile() {
        return position.file();
    }

    /**
     * Stops any shipper still running on this spool, persists the acknowledged position, and
     * closes the queue and every tailer still open. Idempotent. Tailers used by other threads
     * must be done before this is called.
     */
    @Override
    public void close() {
        // Stop shippers first, outside the locks: a stopping shipper still acknowledges its round.
        for (KafkaShipper shipper : List.copyOf(shippers)) {
            shipper.close();
        }
        appendLock.lock();
        try {
            if (closed) {
                return;
            }
            synchronized (ackLock) {
                try {
                    syncPosition();
                } finally {
                    closed = true;
                }
            }
            for (SpoolTailer t : List.copyOf(tailers)) {
                t.closeQuietly();
            }
            appender.close();
            queue.close();
            LOG.info("Spool {} closed: {} event(s) not yet shipped", dir, backlog.get());
        } finally {
            appendLock.unlock();
        }
    }

    boolean isClosed() {
        return closed;
    }

    void forget(SpoolTailer tailer) {
        tailers.remove(tailer);
    }

    /** Registers a shipper to be stopped before the spool closes. */
    void attach(KafkaShipper shipper) {
        checkOpen();
        shippers.add(shipper);
    }

    void detach(KafkaShipper shipper) {
        shippers.remove(shipper);
    }

    SingleChronicleQueue queue() {
        return queue;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the spool " + dir + " is closed");
        }
    }

    /** The number of events after {@code index} (all of them for {@link #NO_INDEX}). */
    private long countAfter(long index) {
        long last = queue.lastIndex();
        if (last < 0) {
            return 0;
        }
        return countBetween(index, last);
    }

    /** The number of events in (from, to]; {@code from} may be {@link #NO_INDEX} or older than the oldest file. */
    private long countBetween(long from, long to) {
        long first = queue.firstIndex();
        if (from == NO_INDEX || from < first) {
            return queue.countExcerpts(first, to) + 1;
        }
        // countExcerpts counts [from, to), which has as many events as (from, to].
        return queue.countExcerpts(from, to);
    }
}
