package io.isowatch.agent.client;

import io.isowatch.agent.store.AcknowledgementLostException;
import io.isowatch.agent.store.EmbeddedStore;
import io.isowatch.agent.store.StoreTransaction;
import io.isowatch.agent.store.TransactionAbortedException;
import io.isowatch.history.MicroOp;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@link DatabaseClient} on an {@link EmbeddedStore}. A transaction whose micro-ops are all
 * reads begins read-only, as a JDBC adapter would with {@code Connection.setReadOnly(true)}
 * (it matters at serializable, where read-only transactions may read an older snapshot).
 * Aborts become {@link DefinitelyAbortedException}, a lost acknowledgement becomes
 * {@link IndeterminateException}.
 */
public final class EmbeddedStoreClient implements DatabaseClient {

    private final EmbeddedStore store;

    public EmbeddedStoreClient(EmbeddedStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** A factory handing out clients of {@code store}. */
    public static ClientFactory factory(EmbeddedStore store) {
        Objects.requireNonNull(store, "store");
        return (worker, process) -> new EmbeddedStoreClient(store);
    }

    @Override
    public List<MicroOp> execute(List<MicroOp> txn) throws DefinitelyAbortedException, IndeterminateException {
        boolean readOnly = true;
        for (MicroOp m : txn) {
            readOnly &= m instanceof MicroOp.Read;
        }
        List<MicroOp> completed = new ArrayList<>(txn.size());
        try (StoreTransaction t = store.begin(readOnly)) {
            for (MicroOp m : txn) {
                if (m instanceof MicroOp.Read r) {
                    completed.add(new MicroOp.Read(r.key(), t.read(r.key())));
                } else if (m instanceof MicroOp.Append a) {
                    t.append(a.key(), a.value());
                    completed.add(a);
                } else {
                    MicroOp.Write w = (MicroOp.Write) m;
                    t.write(w.key(), w.value());
                    completed.add(w);
                }
            }
            t.commit();
        } catch (TransactionAbortedException e) {
            throw new DefinitelyAbortedException(e.getMessage(), e);
        } catch (AcknowledgementLostException e) {
            throw new IndeterminateException(e.getMessage(), e);
        }
        return completed;
    }

    @Override
    public void close() {
        // Nothing to release: the store outlives its clients.
    }
}
