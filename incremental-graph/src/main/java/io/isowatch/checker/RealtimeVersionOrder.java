package io.isowatch.checker;

import io.isowatch.collect.IntList;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The version orders that {@code --linearizable-keys} infers, as Elle infers them: from its
 * realtime graph (each transaction linked from the committed ones not yet followed by another
 * committed one when it was invoked), compressed per key. A transaction's predecessors on a key
 * are the nearest committed transactions touching the key that reach it through transactions
 * that do not; the last value each of those saw of the key precedes the first value it sees.
 *
 * <p>Each query walks back through the realtime graph from the transaction, stopping at
 * transactions touching the key, and at transactions that completed before the key was first
 * touched by a committed one. Its cost is the stretch of history since the key was last touched.
 * Memory: the realtime predecessors and the touched values of each committed transaction.
 * Not thread-safe.
 */
final class RealtimeVersionOrder {

    /** The values a committed transaction saw of one key: its first and its last. */
    record Touch(RegisterInference.Value first, RegisterInference.Value last) {
    }

    private final IntList buffer = new IntList();
    private final Map<Integer, int[]> predecessors = new HashMap<>();
    private final Map<Integer, Map<Long, Touch>> touches = new HashMap<>();
    private final Map<Integer, Long> completionOrder = new HashMap<>();
    private final Map<Long, Long> firstTouchCompleted = new HashMap<>();
    private long completions;

    /**
     * A transaction was invoked: it follows every committed transaction in the buffer, or none
     * when the time of its invocation is unknown (its completion came alone).
     */
    void invoked(int txn, boolean timeKnown) {
        predecessors.put(txn, timeKnown ? buffer.toArray() : new int[0]);
    }

    /**
     * A transaction completed. For a committed one, {@code touched} maps each key to the values
     * it saw; it then joins the buffer in place of its predecessors.
     */
    void completed(int txn, boolean committed, Map<Long, Touch> touched) {
        long order = completions++;
        if (!committed) {
            return;
        }
        completionOrder.put(txn, order);
        touches.put(txn, touched);
        for (Long key : touched.keySet()) {
            firstTouchCompleted.putIfAbsent(key, order);
        }
        int[] before = predecessors.get(txn);
        for (int p : before) {
            for (int i = 0; i < buffer.size(); i++) {
                if (buffer.get(i) == p) {
                    buffer.swapRemove(i);
                    break;
                }
            }
        }
        buffer.add(txn);
    }

    /** The values the nearest committed transactions touching {@code key} before {@code txn} last saw. */
    List<RegisterInference.Value> previousValues(int txn, long key) {
        List<RegisterInference.Value> out = new ArrayList<>();
        Long first = firstTouchCompleted.get(key);
        if (first == null) {
            return out;
        }
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        IntList stack = new IntList();
        for (int p : predecessors.getOrDefault(txn, new int[0])) {
            stack.add(p);
        }
        while (!stack.isEmpty()) {
            int p = stack.get(stack.size() - 1);
            stack.swapRemove(stack.size() - 1);
            if (!seen.add(p) || completionOrder.getOrDefault(p, -1L) < first) {
                continue;
            }
            Touch t = touches.get(p).get(key);
            if (t != null) {
                out.add(t.last());
                continue;
            }
            for (int q : predecessors.get(p)) {
                stack.add(q);
            }
        }
        return out;
    }
}
