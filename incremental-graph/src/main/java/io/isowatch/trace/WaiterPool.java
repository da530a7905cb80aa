package io.isowatch.trace;

import java.util.Arrays;

/**
 * Linked lists of readers waiting for a writer to complete, in shared primitive arrays.
 *
 * <p>A read may observe an element before the completion of the transaction that appended it
 * arrives (concurrent transactions; events from several agents). Until that writer is known to
 * have committed or aborted, the read's edge to it waits here. Entries are never reused; the
 * pool grows with the number of such reads, which is small next to the history.
 */
final class WaiterPool {

    static final int END = -1;

    private int[] txn = new int[256];
    private byte[] kind = new byte[256];
    private int[] next = new int[256];
    private int size;

    /** Pushes a waiter onto the list starting at {@code head}; returns the new head. */
    int push(int head, int waiterTxn, byte waiterKind) {
        if (size == txn.length) {
            int cap = size * 2;
            txn = Arrays.copyOf(txn, cap);
            kind = Arrays.copyOf(kind, cap);
            next = Arrays.copyOf(next, cap);
        }
        int i = size++;
        txn[i] = waiterTxn;
        kind[i] = waiterKind;
        next[i] = head;
        return i;
    }

    int txn(int entry) {
        return txn[entry];
    }

    byte kind(int entry) {
        return kind[entry];
    }

    int next(int entry) {
        return next[entry];
    }
}
