package io.isowatch.checker;

import java.util.Arrays;

/**
 * One agent's buffer in Elle's realtime-graph sense: committed transactions not yet followed by a
 * committed one. Each member carries when it was invoked and completed (its events' positions in
 * the merged history and their merge times), so {@link FleetRealtime} can tell which members of a
 * snapshot precede others without a per-transaction table. Columns in plain arrays: a buffer
 * holds about as many members as the agent has clients. Not thread-safe.
 */
final class RealtimeBuffer {

    private static final int[] NO_IDS = new int[0];

    private int size;
    private int[] ids = new int[8];
    private long[] invokeSeq = new long[8];
    private long[] invokeTime = new long[8];
    private long[] completeSeq = new long[8];
    private long[] completeTime = new long[8];

    int size() {
        return size;
    }

    int id(int i) {
        return ids[i];
    }

    long invokeSeq(int i) {
        return invokeSeq[i];
    }

    long invokeTime(int i) {
        return invokeTime[i];
    }

    long completeSeq(int i) {
        return completeSeq[i];
    }

    long completeTime(int i) {
        return completeTime[i];
    }

    /** The members' ids, in buffer order. */
    int[] ids() {
        return Arrays.copyOf(ids, size);
    }

    /** Elle's step: the committed {@code txn} replaces its {@code predecessors} (those still here). */
    void replace(int[] predecessors, int txn, long txnInvokeSeq, long txnInvokeTime, long txnCompleteSeq,
                 long txnCompleteTime) {
        for (int p : predecessors) {
            for (int i = 0; i < size; i++) {
                if (ids[i] == p) {
                    moveLastTo(i);
                    break;
                }
            }
        }
        if (size == ids.length) {
            int cap = size * 2;
            ids = Arrays.copyOf(ids, cap);
            invokeSeq = Arrays.copyOf(invokeSeq, cap);
            invokeTime = Arrays.copyOf(invokeTime, cap);
            completeSeq = Arrays.copyOf(completeSeq, cap);
            completeTime = Arrays.copyOf(completeTime, cap);
        }
        ids[size] = txn;
        invokeSeq[size] = txnInvokeSeq;
        invokeTime[size] = txnInvokeTime;
        completeSeq[size] = txnCompleteSeq;
        completeTime[size] = txnCompleteTime;
        size++;
    }

    /** Appends a member (a snapshot's scratch copy, where nothing is replaced). */
    void add(int txn, long txnInvokeSeq, long txnInvokeTime, long txnCompleteSeq, long txnCompleteTime) {
        replace(NO_IDS, txn, txnInvokeSeq, txnInvokeTime, txnCompleteSeq, txnCompleteTime);
    }

    void clear() {
        size = 0;
    }

    /** Forgets the members below {@code cut} and renumbers the rest down by {@code cut}. */
    void evictBelow(int cut) {
        for (int i = size - 1; i >= 0; i--) {
            if (ids[i] < cut) {
                moveLastTo(i);
            }
        }
        for (int i = 0; i < size; i++) {
            ids[i] -= cut;
        }
    }

    private void moveLastTo(int i) {
        size--;
        ids[i] = ids[size];
        invokeSeq[i] = invokeSeq[size];
        invokeTime[i] = invokeTime[size];
        completeSeq[i] = completeSeq[size];
        completeTime[i] = completeTime[size];
    }
}
