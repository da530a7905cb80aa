package io.isowatch.agent.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * One transaction of an {@link EmbeddedStore}: reads, appends and register writes, then
 * {@link #commit()} or {@link #rollback()}.
 *
 * <p>Not thread-safe: one thread drives a transaction. Any {@link TransactionAbortedException}
 * it throws leaves it finished, with its writes discarded and its locks released; using it
 * afterwards is an {@link IllegalStateException}. Writes are buffered and installed at commit,
 * except at read-uncommitted, where each write is visible to other transactions at once.
 */
public final class StoreTransaction implements AutoCloseable {

    /** The snapshot of a transaction that reads the latest committed value of each key. */
    static final long LATEST = -1;
    static final long NO_CONFLICT = Long.MIN_VALUE;

    private enum State { ACTIVE, COMMITTED, ABORTED }

    private final EmbeddedStore store;
    private final StoreOptions options;
    private final IsolationLevel level;
    private final long id;
    private final boolean readOnly;
    private final long snapshot;
    private final SplittableRandom random;
    private final Map<Long, Buffered> writes = new LinkedHashMap<>();
    private final Set<Long> readKeys = new HashSet<>();
    private final List<Cell> locked = new ArrayList<>();
    private State state = State.ACTIVE;
    /** The cell whose write lock this transaction waits for; guarded by the {@link LockTable}. */
    Cell waitingFor;

    StoreTransaction(EmbeddedStore store, long id, boolean readOnly, long snapshot) {
        this.store = store;
        this.options = store.options();
        this.level = options.isolation();
        this.id = id;
        this.readOnly = readOnly;
        this.snapshot = snapshot;
        this.random = random(options.seed(), id, 0);
    }

    /** A generator for transaction {@code id}'s random choices, reproducible from the store's seed. */
    static SplittableRandom random(long seed, long id, int stream) {
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + id * 31 + stream);
    }

    /** The transaction's number; numbers grow in the order transactions begin. */
    public long id() {
        return id;
    }

    /** The commit timestamp this transaction reads at, or -1 when it reads the latest values. */
    public long snapshot() {
        return snapshot;
    }

    public boolean readOnly() {
        return readOnly;
    }

    /**
     * Reads {@code key}: a list's elements in order, or a register's value as one element (none
     * when unset). The caller owns the returned array.
     *
     * @throws TransactionAbortedException when the snapshot's version has been discarded
     */
    public long[] read(long key) {
        requireActive();
        delay();
        Cell cell = store.cell(key);
        Buffered own = writes.get(key);
        if (level == IsolationLevel.READ_UNCOMMITTED) {
            long[] dirty = cell.dirty;
            if (dirty != null) {
                // Our own uncommitted value if we hold the key's lock, else another writer's.
                return dirty.clone();
            }
        }
        Version version = snapshot == LATEST ? cell.head() : cell.at(snapshot);
        if (version == null) {
            abort(AbortReason.SNAPSHOT_TOO_OLD);
            throw new TransactionAbortedException(AbortReason.SNAPSHOT_TOO_OLD, "transaction " + id
                    + " reads snapshot " + snapshot + " of key " + key + ", but that version has been discarded");
        }
        if (own == null && options.staleReadRate() > 0 && random.nextDouble() < options.staleReadRate()) {
            version = cell.before(version, 1 + random.nextInt(3));
        }
        readKeys.add(key);
        return own == null ? version.copy() : own.applyTo(version);
    }

    /**
     * Appends {@code value} to the list at {@code key}.
     *
     * @throws TransactionAbortedException at read-uncommitted, when an older transaction holds the key
     */
    public void append(long key, long value) {
        write(key, value, false);
    }

    /**
     * Sets the register at {@code key} to {@code value}.
     *
     * @throws TransactionAbortedException at read-uncommitted, when an older transaction holds the key
     */
    public void write(long key, long value) {
        write(key, value, true);
    }

    private void write(long key, long value, boolean replace) {
        requireActive();
        if (readOnly) {
            throw new IllegalStateException("transaction " + id + " began read-only and cannot write key " + key
                    + "; begin it with readOnly = false");
        }
        delay();
        Buffered own = writes.computeIfAbsent(key, k -> new Buffered());
        own.add(value, replace);
        if (level == IsolationLevel.READ_COMMITTED || level == IsolationLevel.READ_UNCOMMITTED) {
            Cell cell = store.cell(key);
            lockForWrite(cell);
            if (level == IsolationLevel.READ_UNCOMMITTED) {
                writeThrough(cell, value, replace);
            }
        }
    }

    /**
     * Read-committed and read-uncommitted: takes the key's write lock until the transaction
     * ends (long write locks). No other transaction installs into the key meanwhile, so the
     * value this transaction reads back (latest committed plus its own writes) is exactly the
     * value it will install.
     */
    private void lockForWrite(Cell cell) {
        try {
            if (store.locks().lock(cell, this)) {
                locked.add(cell);
            }
        } catch (TransactionAbortedException e) {
            abort(e.reason());
            throw e;
        }
    }

    /** Read-uncommitted: makes the new value visible to other transactions at once. */
    private void writeThrough(Cell cell, long value, boolean replace) {
        long[] current = cell.dirty != null ? cell.dirty : cell.head().copy();
        long[] next;
        if (replace) {
            next = new long[] {value};
        } else {
            next = Arrays.copyOf(current, current.length + 1);
            next[current.length] = value;
        }
        cell.dirty = next;
    }

    /**
     * Commits: validates as the isolation level requires and installs the writes.
     *
     * @throws TransactionAbortedException when validation fails or a fault aborts the commit;
     *                                     nothing took effect
     * @throws AcknowledgementLostException fault: the transaction did commit, but the caller is
     *                                      told nothing more
     */
    public void commit() {
        requireActive();
        double fault = random.nextDouble();
        if (fault < options.failRate()) {
            abort(AbortReason.INJECTED);
            throw new TransactionAbortedException(AbortReason.INJECTED, "injected fault: commit of transaction "
                    + id + " refused");
        }
        if (!writes.isEmpty()) {
            try {
                store.commit(this);
            } catch (TransactionAbortedException e) {
                abort(e.reason());
                throw e;
            }
        }
        state = State.COMMITTED;
        releaseLocks();
        if (fault < options.failRate() + options.lostAckRate()) {
            store.countLostAck();
            throw new AcknowledgementLostException("injected fault: transaction " + id
                    + " committed, but its acknowledgement was lost");
        }
    }

    /** Discards the writes and releases the locks; does nothing once the transaction has finished. */
    public void rollback() {
        if (state == State.ACTIVE) {
            abort(AbortReason.ROLLBACK);
        }
    }

    /** Rolls back unless committed. */
    @Override
    public void close() {
        rollback();
    }

    /**
     * The first key whose change since the snapshot fails validation, or {@link #NO_CONFLICT}.
     * Snapshot isolation checks the keys written (first committer wins); serializable levels
     * check the keys read (backward validation). Called inside the commit section.
     */
    long conflictingKey() {
        Iterable<Long> keys = switch (level) {
            case SNAPSHOT_ISOLATION -> writes.keySet();
            case SERIALIZABLE, STRICT_SERIALIZABLE -> readKeys;
            case READ_COMMITTED, READ_UNCOMMITTED -> List.of();
        };
        for (long key : keys) {
            if (store.cell(key).head().ts() > snapshot) {
                return key;
            }
        }
        return NO_CONFLICT;
    }

    /** Installs the writes as versions stamped {@code ts}. Called inside the commit section. */
    void install(long ts, int keep) {
        for (Map.Entry<Long, Buffered> e : writes.entrySet()) {
            Cell cell = store.cell(e.getKey());
            Version version;
            if (level == IsolationLevel.READ_UNCOMMITTED) {
                long[] value = cell.dirty;
                version = new Version(ts, value, value.length);
            } else {
                version = e.getValue().extend(cell.head(), ts);
            }
            cell.install(version, keep);
        }
    }

    private void abort(AbortReason reason) {
        state = State.ABORTED;
        writes.clear();
        releaseLocks();
        store.countAbort(reason);
    }

    private void releaseLocks() {
        for (Cell cell : locked) {
            store.locks().unlock(cell, this);
        }
        locked.clear();
    }

    private void requireActive() {
        if (state != State.ACTIVE) {
            throw new IllegalStateException("transaction " + id + " has already " + (state == State.COMMITTED
                    ? "committed" : "aborted") + "; begin a new one");
        }
    }

    private void delay() {
        if (options.operationDelayNanos() > 0) {
            LockSupport.parkNanos(options.operationDelayNanos());
        }
    }

    /** A transaction's pending writes to one key: the value becomes (replaced ? [] : base) + tail. */
    private static final class Buffered {
        private boolean replaced;
        private long[] tail = new long[2];
        private int size;

        void add(long value, boolean replace) {
            if (replace) {
                replaced = true;
                size = 0;
            }
            if (size == tail.length) {
                tail = Arrays.copyOf(tail, size * 2);
            }
            tail[size++] = value;
        }

        long[] applyTo(Version base) {
            if (replaced) {
                return Arrays.copyOf(tail, size);
            }
            long[] out = Arrays.copyOf(base.elements(), base.length() + size);
            System.arraycopy(tail, 0, out, base.length(), size);
            return out;
        }

        Version extend(Version head, long ts) {
            return head.extend(ts, replaced, tail, size);
        }
    }
}
