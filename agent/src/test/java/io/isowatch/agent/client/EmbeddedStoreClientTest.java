package io.isowatch.agent.client;

import io.isowatch.agent.store.EmbeddedStore;
import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.history.MicroOp;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class EmbeddedStoreClientTest {

    @Test
    void execute_fillsInReadsInOrder_includingOwnWrites() throws Exception {
        EmbeddedStore store = new EmbeddedStore(IsolationLevel.SNAPSHOT_ISOLATION);
        DatabaseClient client = EmbeddedStoreClient.factory(store).open(0, 0);
        client.execute(List.of(new MicroOp.Append(1, 1)));
        List<MicroOp> done = client.execute(List.of(new MicroOp.Read(1, null), new MicroOp.Append(1, 2),
                new MicroOp.Read(1, null), new MicroOp.Write(3, 9), new MicroOp.Read(3, null)));
        assertEquals(5, done.size());
        assertArrayEquals(new long[] {1}, ((MicroOp.Read) done.get(0)).values());
        assertEquals(new MicroOp.Append(1, 2), done.get(1));
        assertArrayEquals(new long[] {1, 2}, ((MicroOp.Read) done.get(2)).values());
        assertArrayEquals(new long[] {9}, ((MicroOp.Read) done.get(4)).values());
        client.close();
    }

    @Test
    void execute_abortIsDefinite_lostAckIsIndeterminate() {
        DatabaseClient aborting = new EmbeddedStoreClient(
                new EmbeddedStore(StoreOptions.of(IsolationLevel.READ_COMMITTED).toBuilder().faults(1, 0, 0).build()));
        assertThrows(DefinitelyAbortedException.class, () -> aborting.execute(List.of(new MicroOp.Append(1, 1))));
        EmbeddedStore store = new EmbeddedStore(StoreOptions.of(IsolationLevel.READ_COMMITTED).toBuilder()
                .faults(0, 1, 0).build());
        DatabaseClient losing = new EmbeddedStoreClient(store);
        assertThrows(IndeterminateException.class, () -> losing.execute(List.of(new MicroOp.Append(1, 1))));
        assertArrayEquals(new long[] {1}, store.latest(1), "the transaction committed nevertheless");
    }

    @Test
    void execute_readOnlyTransaction_beginsReadOnly_soSerializableMayServeAnOlderSnapshot() throws Exception {
        EmbeddedStore store = new EmbeddedStore(StoreOptions.of(IsolationLevel.SERIALIZABLE).toBuilder()
                .readOnlyLag(3).build());
        DatabaseClient client = new EmbeddedStoreClient(store);
        boolean stale = false;
        for (long v = 1; v <= 40; v++) {
            client.execute(List.of(new MicroOp.Append(1, v)));
            long[] seen = ((MicroOp.Read) client.execute(List.of(new MicroOp.Read(1, null))).get(0)).values();
            stale |= seen.length < v;
        }
        assertEquals(true, stale);
    }
}
