package io.isowatch.agent.store;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An in-memory transactional key-value store whose values are lists (appends) or registers
 * (writes), running every transaction at one {@link IsolationLevel} chosen at construction, and
 * optionally injecting faults ({@link StoreOptions}). Used as the embedded target of the
 * workload runner and as a ground truth in tests: a history it produces must satisfy its level.
 *
 * <p>Thread-safe: any number of threads may run transactions at once, one transaction per thread
 * at a time. Reads never take a lock. Commits run a short critical section (validate, stamp,
 * install), as Kung and Robinson's serial validation does; read-committed and read-uncommitted
 * additionally take per-key write locks for the whole transaction. See the package documentation for each level.
 *
 * <p>Keys live forever once written: memory grows with the number of distinct keys (a list's
 * elements plus up to {@link StoreOptions#versionsKept()} small version records per key).
 */
public final class EmbeddedStore {

    private final StoreOptions options;
    private final ConcurrentHashMap<Long, Cell> cells = new ConcurrentHashMap<>();
    private final ReentrantLock commitSection = new ReentrantLock();
    private final LockTable locks = new LockTable();
    private final AtomicLong transactionIds = new AtomicLong();

    /** The last commit timestamp handed out; guarded by {@link #commitSection}. */
    private long clock;
    /** Every commit with a timestamp at or below this is fully installed. */
    private volatile long published;

    private final LongAdder commits = new LongAdder();
    private final LongAdder lostAcks = new LongAdder();
    private final Map<AbortReason, LongAdder> aborts = new EnumMap<>(AbortReason.class);

    public EmbeddedStore(StoreOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        for (AbortReason r : AbortReason.values()) {
            aborts.put(r, new LongAdder());
        }
    }

    /** A fault-free store at {@code isolation}. */
    public EmbeddedStore(IsolationLevel isolation) {
        this(StoreOptions.of(isolation));
    }

    public StoreOptions options() {
        return options;
    }

    public IsolationLevel isolation() {
        return options.isolation();
    }

    /** Begins a transaction that may read and write. */
    public StoreTransaction begin() {
        return begin(false);
    }

    /**
     * Begins a transaction. A read-only one refuses writes; at {@link IsolationLevel#SERIALIZABLE}
     * it may read a snapshot up to {@link StoreOptions#readOnlyLag()} commits old.
     */
    public StoreTransaction begin(boolean readOnly) {
        long id = transactionIds.incrementAndGet();
        return new StoreTransaction(this, id, readOnly, snapshotFor(readOnly, id));
    }

    private long snapshotFor(boolean readOnly, long id) {
        return switch (options.isolation()) {
            case READ_COMMITTED, READ_UNCOMMITTED -> StoreTransaction.LATEST;
            case STRICT_SERIALIZABLE, SNAPSHOT_ISOLATION -> published;
            case SERIALIZABLE -> {
                long now = published;
                if (!readOnly || options.readOnlyLag() == 0) {
                    yield now;
                }
                long lag = StoreTransaction.random(options.seed(), id, 1).nextInt(options.readOnlyLag() + 1);
                yield Math.max(0, now - lag);
            }
        };
    }

    /** The latest committed value of {@code key} (empty when never written), outside any transaction. */
    public long[] latest(long key) {
        Cell cell = cells.get(key);
        return cell == null ? new long[0] : cell.head().copy();
    }

    /** The number of keys ever touched. */
    public int keyCount() {
        return cells.size();
    }

    /** Transactions committed so far (including those whose acknowledgement was lost). */
    public long commits() {
        return commits.sum();
    }

    /** Transactions aborted so far for {@code reason}. */
    public long aborts(AbortReason reason) {
        return aborts.get(reason).sum();
    }

    /** Commits whose acknowledgement was dropped by fault injection. */
    public long lostAcknowledgements() {
        return lostAcks.sum();
    }

    Cell cell(long key) {
        Cell cell = cells.get(key);
        return cell != null ? cell : cells.computeIfAbsent(key, k -> new Cell());
    }

    LockTable locks() {
        return locks;
    }

    void countAbort(AbortReason reason) {
        aborts.get(reason).increment();
    }

    void countLostAck() {
        lostAcks.increment();
    }

    /**
     * Validates and installs {@code txn}'s writes atomically with respect to every other commit:
     * the validation rule of the isolation level, then a fresh timestamp, then the new versions,
     * then publication of the timestamp to snapshot readers. Runs under one lock, so the
     * timestamp order is the order in which versions appear on every key.
     *
     * @throws TransactionAbortedException ({@link AbortReason#CONFLICT}) when validation fails;
     *                                     nothing has been installed
     */
    void commit(StoreTransaction txn) {
        commitSection.lock();
        try {
            long conflict = txn.conflictingKey();
            if (conflict != StoreTransaction.NO_CONFLICT) {
                throw new TransactionAbortedException(AbortReason.CONFLICT, "transaction " + txn.id()
                        + " conflicts on key " + conflict + ": it changed after snapshot " + txn.snapshot());
            }
            long ts = ++clock;
            txn.install(ts, options.versionsKept());
            published = ts;
        } finally {
            commitSection.unlock();
        }
        commits.increment();
    }
}
