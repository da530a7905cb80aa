package io.isowatch.trace;

import java.util.Arrays;

/**
 * Linked lists of readers waiting for a writer to complete, in shared primitive arrays.
 *
 * <p>A read may observe an element before the completion of the transaction that appended it
 * arrives (concurrent transactions; events from several agents). Until that writer is known to
 * have committed or aborted, the read's edge to it waits here. A list its writer's completion
 * has released is reused by later pushes, so the pool holds about as many entries as reads wait
 * at one time, not as many as ever waited.
 *
 * <p>An eviction moves the lists still needed to a fresh pool ({@link #copyFrom}) and drops this
 * one whole, so entries of forgotten transactions and the slack of a busy past become garbage.
 */
final class WaiterPool {

    static final int END = -1;

    private int[] txn = new int[256];
    private byte[] kind = new byte[256];
    private int[] next = new int[256];
    private int size;
    /** Released entries, linked through {@code next}. */
    private int free = END;

    /** Pushes a waiter onto the list starting at {@code head}; returns the new head. */
    int push(int head, int waiterTxn, byte waiterKind) {
        if (free != END) {
            int i = free;
            free = next[i];
            txn[i] = waiterTxn;
            kind[i] = waiterKind;
            next[i] = head;
            return i;
        }
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

    /** Gives back the whole list starting at {@code head}; its entries must no longer be read. O(length). */
    void release(int head) {
        if (head == END) {
            return;
        }
        int last = head;
        while (next[last] != END) {
            last = next[last];
        }
        next[last] = free;
        free = head;
    }

    /**
     * Copies the list starting at {@code head} (or none, for {@link #END} or a never-set head)
     * into {@code to}, keeping its order, without the waiters below {@code cut} and with the
     * others renumbered by {@code -cut}. Returns the copy's head, {@link #END} when none is left.
     */
    int copyFrom(int head, int cut, WaiterPool to) {
        int n = 0;
        for (int e = head; e >= 0; e = next[e]) {
            n++;
        }
        int[] kept = new int[n];
        int k = 0;
        for (int e = head; e >= 0; e = next[e]) {
            if (txn[e] >= cut) {
                kept[k++] = e;
            }
        }
        int copy = END;
        for (int i = k - 1; i >= 0; i--) {
            copy = to.push(copy, txn[kept[i]] - cut, kind[kept[i]]);
        }
        return copy;
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
