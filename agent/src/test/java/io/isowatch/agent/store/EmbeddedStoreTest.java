package io.isowatch.agent.store;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each isolation level's defining behaviour, with transactions on real threads whose steps are
 * ordered by latches.
 */
class EmbeddedStoreTest {

    private static final long X = 1;
    private static final long Y = 2;

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void shutdown() {
        pool.shutdownNow();
    }

    private <T> Future<T> inThread(Callable<T> body) {
        return pool.submit(body);
    }

    private static <T> T get(Future<T> f) throws Exception {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(10, TimeUnit.SECONDS), "timed out waiting for the other transaction");
    }

    private static void commitAppend(EmbeddedStore store, long key, long value) {
        StoreTransaction t = store.begin();
        t.append(key, value);
        t.commit();
    }

    /** Two transactions read x and y from the same state, then each appends to a different key. */
    private List<Future<Void>> writeSkew(EmbeddedStore store, CountDownLatch firstCommitted) {
        CountDownLatch bothRead = new CountDownLatch(2);
        Future<Void> first = inThread(() -> {
            StoreTransaction t = store.begin();
            t.read(X);
            t.read(Y);
            bothRead.countDown();
            await(bothRead);
            t.append(X, 1);
            t.commit();
            firstCommitted.countDown();
            return null;
        });
        Future<Void> second = inThread(() -> {
            StoreTransaction t = store.begin();
            t.read(X);
            t.read(Y);
            bothRead.countDown();
            await(bothRead);
            t.append(Y, 1);
            await(firstCommitted);
            t.commit();
            return null;
        });
        return List.of(first, second);
    }

    @Test
    void snapshotIsolation_concurrentWritersOfOneKey_firstCommitterWins() throws Exception {
        EmbeddedStore store = new EmbeddedStore(IsolationLevel.SNAPSHOT_ISOLATION);
        CountDownLatch bothBegan = new CountDownLatch(2);
        CountDownLatch firstCommitted = new CountDownLatch(1);
        Future<Void> first = inThread(() -> {
            StoreTransaction t = store.begin();
            t.append(X, 1);
            bothBegan.countDown();
            await(bothBegan);
            t.commit();
            firstCommitted.countDown();
            return null;
        });
        Future<Void> second = inThread(() -> {
            StoreTransaction t = store.begin();
            t.append(X, 2);
            bothBegan.countDown();
            await(firstCommitted);
            t.commit();
            return null;
        });
        get(first);
        TransactionAbortedException e = assertThrows(TransactionAbortedException.class, () -> get(second));
        assertEquals(AbortReason.CONFLICT, e.reason());
        assertArrayEquals(new long[] {1}, store.latest(X));
    }

    @Test
    void snapshotIsolation_writeSkew_bothCommit() throws Exception {
        EmbeddedStore store = new EmbeddedStore(IsolationLevel.SNAPSHOT_ISOLATION);
        List<Future<Void>> txns = writeSkew(store, new CountDownLatch(1));
        get(txns.get(0));
        get(txns.get(1));
        assertArrayEquals(new long[] {1}, store.latest(X));
        assertArrayEquals(new long[] {1}, store.latest(Y));
    }

    @ParameterizedTest
    @EnumSource(value = IsolationLevel.class, names = {"SERIALIZABLE", "STRICT_SERIALIZABLE"})
    void serializableLevels_writeSkew_secondCommitterAborts(IsolationLevel level) throws Exception {
        EmbeddedStore store = new EmbeddedStore(level);
        List<Future<Void>> txns = writeSkew(store, new CountDownLatch(1));
        get(txns.get(0));
        TransactionAbortedException e = assertThrows(TransactionAbortedException.class, () -> get(txns.get(1)));
        assertEquals(AbortReason.CONFLICT, e.reason());
        assertArrayEquals(new long[] {1}, store.latest(X));
        assertArrayEquals(new long[0], store.latest(Y));
    }

    @Test
    void snapshotIsolation_readsStayOnTheSnapshotWhileOthersCommit() throws Exception {
        EmbeddedStore store = new EmbeddedStore(IsolationLevel.SNAPSHOT_ISOLATION);
        commitAppend(store, X, 1);
        StoreTransaction t = store.begin();
        assertArrayEquals(new long[] {1}, t.read(X));
        get(inThread(() -> {
            commitAppend(store, X, 2);
            commitAppend(store, Y, 1);
            return null;
        }));
        assertArrayEquals(new long[] {1}, t.read(X));
        assertArrayEquals(new long[0], t.read(Y));
        t.commit();
    }

    @Test
    void readCommitted_seesNewlyCommittedDataBetweenReads_butNeverUncommitted() throws Exception {
        EmbeddedStore store = new EmbeddedStore(IsolationLevel.READ_COMMITTED);
        StoreTransaction reader = store.begin();
        assertArrayEquals(new long[0], reader.read(X));
        CountDownLatch appended = new CountDownLatch(1);
        CountDownLatch readDirty = new CountDownLatch(1);
        Future<Void> writer = inThread(() -> {
            StoreTransaction t = store.begin();
            t.append(X, 1);
            appended.countDown();
            await(readDirty);
            t.commit();
            return null;
        });
        await(appended);
        assertArrayEquals(new long[0], reader.read(X), "read-committed must not see an uncommitted append");
        readDirty.countDown();
        get(writer);
        assertArrayEquals(new long[] {1}, reader.read(X), "read-committed sees the newly committed append");
        reader.commit();
    }

    @Test
    void readCommitted_lostUpdate_bothCommit() throws Exception {
        EmbeddedStore store = new EmbeddedStore(IsolationLevel.READ_COMMITTED);
        CountDownLatch bothRead = new CountDownLatch(2);
        List<Future<long[]>> txns = new ArrayList<>();
        for (long v = 1; v <= 2; v++) {
            long value = v;
            txns.add(inThread(() -> {
                StoreTransaction t = store.begin();
                long[] seen = t.read(X);
                bothRead.countDown();
                await(bothRead);
                t.append(X, value);
                t.commit();
                return seen;
            }));
        }
        assertArrayEquals(new long[0], get(txns.get(0)));
        assertArrayEquals(new long[0], get(txns.get(1)));
        assertEquals(2, store.latest(X).length);
    }

    @Test
    void readUncommitted_readsUncommittedData_evenWhenItIsRolledBack() throws Exception {
        EmbeddedStore store = new EmbeddedStore(IsolationLevel.READ_UNCOMMITTED);
        CountDownLatch appended = new CountDownLatch(1);
        CountDownLatch readDirty = new CountDownLatch(1);
        Future<Void> writer = inThread(() -> {
            StoreTransaction t = store.begin();
            t.append(X, 7);
            appended.countDown();
            await(readDirty);
            t.rollback();
            return null;
        });
        StoreTransaction reader = store.begin();
        await(appended);
        assertArrayEquals(new long[] {7}, reader.read(X), "read-uncommitted sees the uncommitted append");
        readDirty.countDown();
        get(writer);
        assertArrayEquals(new long[0], reader.read(X), "the rolled-back append is gone");
        reader.commit();
        assertArrayEquals(new long[0], store.latest(X));
    }

    @ParameterizedTest
    @EnumSource(value = IsolationLevel.class, names = {"READ_COMMITTED", "READ_UNCOMMITTED"})
    void writeLocks_writerWaitsForHolder_andADeadlockAbortsTheTransactionClosingIt(IsolationLevel level)
            throws Exception {
        EmbeddedStore store = new EmbeddedStore(level);
        StoreTransaction first = store.begin();
        StoreTransaction second = store.begin();
        first.append(X, 1);
        second.append(Y, 2);
        CountDownLatch waiting = new CountDownLatch(1);
        Future<Void> firstWaits = inThread(() -> {
            waiting.countDown();
            first.append(Y, 1);
            first.commit();
            return null;
        });
        await(waiting);
        assertThrows(TimeoutException.class, () -> firstWaits.get(100, TimeUnit.MILLISECONDS),
                "the first transaction waits for the second's lock on y");
        TransactionAbortedException e = assertThrows(TransactionAbortedException.class, () -> second.append(X, 2));
        assertEquals(AbortReason.DEADLOCK, e.reason());
        get(firstWaits);
        assertArrayEquals(new long[] {1}, store.latest(X));
        assertArrayEquals(new long[] {1}, store.latest(Y));
        assertEquals(1, store.aborts(AbortReason.DEADLOCK));
    }

    @Test
    void strictSerializable_readOnlyTransaction_seesEveryEarlierCommit() {
        EmbeddedStore store = new EmbeddedStore(StoreOptions.of(IsolationLevel.STRICT_SERIALIZABLE)
                .toBuilder().readOnlyLag(20).build());
        for (int i = 1; i <= 50; i++) {
            commitAppend(store, X, i);
            StoreTransaction r = store.begin(true);
            assertEquals(i, r.read(X).length);
            r.commit();
        }
    }

    @Test
    void serializable_readOnlyTransaction_mayReadAnOlderSnapshot_updatesDoNot() {
        EmbeddedStore store = new EmbeddedStore(StoreOptions.of(IsolationLevel.SERIALIZABLE).toBuilder()
                .readOnlyLag(5).build());
        boolean sawOld = false;
        for (int i = 1; i <= 50; i++) {
            commitAppend(store, X, i);
            StoreTransaction r = store.begin(true);
            int seen = r.read(X).length;
            assertTrue(seen >= i - 5 && seen <= i, "lag within 5 commits: " + seen + " at " + i);
            sawOld |= seen < i;
            r.commit();
            StoreTransaction u = store.begin();
            assertEquals(i, u.read(X).length);
            u.rollback();
        }
        assertTrue(sawOld, "some read-only transaction read an older snapshot");
    }

    @Test
    void snapshotTooOld_abortsTheReader() {
        EmbeddedStore store = new EmbeddedStore(StoreOptions.of(IsolationLevel.SNAPSHOT_ISOLATION).toBuilder()
                .versionsKept(2).build());
        StoreTransaction old = store.begin();
        for (int i = 1; i <= 3; i++) {
            commitAppend(store, X, i);
        }
        TransactionAbortedException e = assertThrows(TransactionAbortedException.class, () -> old.read(X));
        assertEquals(AbortReason.SNAPSHOT_TOO_OLD, e.reason());
        assertThrows(IllegalStateException.class, () -> old.read(Y));
    }

    @Test
    void injectedAbort_installsNothing() {
        EmbeddedStore store = new EmbeddedStore(StoreOptions.of(IsolationLevel.SNAPSHOT_ISOLATION).toBuilder()
                .faults(1, 0, 0).build());
        StoreTransaction t = store.begin();
        t.append(X, 1);
        TransactionAbortedException e = assertThrows(TransactionAbortedException.class, t::commit);
        assertEquals(AbortReason.INJECTED, e.reason());
        assertArrayEquals(new long[0], store.latest(X));
        assertEquals(1, store.aborts(AbortReason.INJECTED));
    }

    @Test
    void lostAcknowledgement_commitsButThrows() {
        EmbeddedStore store = new EmbeddedStore(StoreOptions.of(IsolationLevel.SNAPSHOT_ISOLATION).toBuilder()
                .faults(0, 1, 0).build());
        StoreTransaction t = store.begin();
        t.append(X, 1);
        assertThrows(AcknowledgementLostException.class, t::commit);
        assertArrayEquals(new long[] {1}, store.latest(X));
        assertEquals(1, store.lostAcknowledgements());
    }

    @Test
    void staleRead_servesAnOlderVersion() {
        EmbeddedStore store = new EmbeddedStore(StoreOptions.of(IsolationLevel.STRICT_SERIALIZABLE)
                .toBuilder().faults(0, 0, 1).build());
        for (int i = 1; i <= 5; i++) {
            commitAppend(store, X, i);
        }
        StoreTransaction t = store.begin(true);
        int seen = t.read(X).length;
        assertTrue(seen >= 2 && seen <= 4, "one of the three previous versions: " + seen);
    }

    /** Every level: appends of committed transactions are all there, once, in every key; aborted ones never. */
    @ParameterizedTest
    @EnumSource(IsolationLevel.class)
    void concurrentAppends_keepExactlyTheCommittedOnes(IsolationLevel level) throws Exception {
        EmbeddedStore store = new EmbeddedStore(StoreOptions.of(level).toBuilder().faults(0.1, 0, 0).build());
        int threads = 8;
        int perThread = 2_000;
        Set<Long> committed = ConcurrentHashMap.newKeySet();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Void>> futures = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            int worker = w;
            futures.add(inThread(() -> {
                await(start);
                for (int i = 0; i < perThread; i++) {
                    long value = worker * 1_000_000L + i;
                    StoreTransaction t = store.begin();
                    try {
                        t.read(X);
                        t.append(X, value);
                        t.append(Y, value);
                        t.commit();
                        committed.add(value);
                    } catch (TransactionAbortedException e) {
                        // Conflicts and injected aborts leave no trace.
                    }
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<Void> f : futures) {
            get(f);
        }
        assertFalse(committed.isEmpty());
        for (long key : new long[] {X, Y}) {
            long[] list = store.latest(key);
            Set<Long> seen = new HashSet<>();
            for (long v : list) {
                assertTrue(seen.add(v), "duplicate " + v + " in key " + key);
            }
            assertEquals(committed, seen, "key " + key + " holds exactly the committed appends");
        }
        assertEquals(committed.size(), store.commits());
    }
}
