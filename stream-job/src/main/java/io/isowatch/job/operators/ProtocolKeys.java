package io.isowatch.job.operators;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The keys a history's checker was fed while it followed the agent protocol (decision 0016), so
 * that a checker rebuilt from a cut, after a restore or with a fresh string table, can resume
 * judging garbage reads at completion for every key first touched after the cut.
 *
 * <p>Only integer keys can be carried over: a string key's atom is a code of the checker's own
 * string table, which a rebuilt checker makes anew. A history that feeds a string key while
 * following the protocol is not {@link #resumable()}; its rebuilt checkers wait for the end, as
 * without the protocol. The agent's workloads number their keys in order, so the set is a few
 * runs of a compressed bitmap.
 */
final class ProtocolKeys {

    private final Roaring64Bitmap keys = new Roaring64Bitmap();
    private boolean stringKey;
    /** The last key added: transactions touch the same key in a row, and a lookup costs more than this test. */
    private long lastKey = Long.MIN_VALUE;

    /**
     * Records the keys of an event fed to the checker while it follows the protocol. Only an
     * invocation's count: under the protocol its completion touches the same keys (one that
     * came without it breaks the protocol, and nothing resumes then).
     */
    void fed(Op op) {
        if (stringKey || op.type() != OpType.INVOKE) {
            return;
        }
        for (MicroOp m : op.value()) {
            long key = m.key();
            if (key == lastKey) {
                continue;
            }
            if (AtomTable.isString(key)) {
                stringKey = true;
                return;
            }
            keys.addLong(key);
            lastKey = key;
        }
    }

    /** Whether a rebuilt checker can resume the protocol: every key fed was an integer. */
    boolean resumable() {
        return !stringKey;
    }

    /** The keys fed so far (the set itself: the checker takes a copy). */
    Roaring64Bitmap keys() {
        return keys;
    }

    /** The keys in the bitmap's portable form, for the operator's state. */
    byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            keys.runOptimize();
            keys.serializePortable(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Takes the keys back from {@link #toBytes()} after a restore. */
    void restore(byte[] state) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
            keys.deserializePortable(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the state " + CheckTransactionsFunction.PROTOCOL_KEYS
                    + " (" + state.length + " bytes): " + e.getMessage(), e);
        }
        lastKey = Long.MIN_VALUE;
    }
}
