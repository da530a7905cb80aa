package io.isowatch.trace;

import io.isowatch.collect.IntListPool;
import io.isowatch.collect.LongIntMap;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** The version traces of all list-append keys seen so far, created on first use. Not thread-safe. */
public final class ListAppendTraces {

    private final LongIntMap slots = new LongIntMap();
    private final List<ListAppendTrace> traces = new ArrayList<>();
    private final WaiterPool waiters = new WaiterPool();
    /** Every trace's frontier in one arena: most hold one reader or none, which costs no arena space. */
    private final IntListPool lists = new IntListPool();

    /** The trace of {@code key}, created when absent. */
    public ListAppendTrace trace(long key) {
        int slot = slots.get(key);
        if (slot != LongIntMap.MISSING) {
            return traces.get(slot);
        }
        ListAppendTrace t = new ListAppendTrace(key, waiters, lists);
        slots.put(key, traces.size());
        traces.add(t);
        return t;
    }

    /** The trace of {@code key}, or null when the key was never touched. */
    public ListAppendTrace find(long key) {
        int slot = slots.get(key);
        return slot == LongIntMap.MISSING ? null : traces.get(slot);
    }

    /** Number of keys. */
    public int size() {
        return traces.size();
    }

    public void forEach(Consumer<ListAppendTrace> visitor) {
        traces.forEach(visitor);
    }
}
