package io.isowatch.trace;

import io.isowatch.collect.IntListPool;
import io.isowatch.collect.LongIntMap;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** The version traces of all list-append keys seen so far, created on first use. Not thread-safe. */
public final class ListAppendTraces {

    private LongIntMap slots = new LongIntMap();
    private List<ListAppendTrace> traces = new ArrayList<>();
    private WaiterPool waiters = new WaiterPool();
    /** Every trace's frontier in one arena: most hold one reader or none, which costs no arena space. */
    private IntListPool lists = new IntListPool();
    private boolean evicted;
    private final ReadSettling settling;

    /** Traces whose garbage reads wait for the end of the history. */
    public ListAppendTraces() {
        this(ReadSettling.atTheEnd());
    }

    /** Traces whose garbage reads are judged as {@code settling} says. */
    public ListAppendTraces(ReadSettling settling) {
        this.settling = settling;
    }

    /** The trace of {@code key}, created when absent. */
    public ListAppendTrace trace(long key) {
        int slot = slots.get(key);
        if (slot != LongIntMap.MISSING) {
            return traces.get(slot);
        }
        ListAppendTrace t = new ListAppendTrace(key, waiters, lists, evicted, settling);
        slots.put(key, traces.size());
        traces.add(t);
        return t;
    }

    /** The trace of {@code key}, or null when the key was never touched (or its trace was dropped). */
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

    /**
     * Forgets the transactions below {@code cut} and renumbers the rest by {@code -cut}. A trace
     * no transaction from {@code cut} on has touched is dropped whole: a key retired by its
     * workload costs nothing afterwards. Should such a key be touched again, its trace starts
     * afresh, as in a checker that saw the history only from the cut (its earlier elements have
     * no known writer). The others move to fresh pools, so the old pools and everything in them
     * for forgotten transactions become garbage. Every trace is {@link ListAppendTrace#partial}
     * from now on. O(size of all traces).
     */
    public void evictBelow(int cut) {
        WaiterPool keptWaiters = new WaiterPool();
        IntListPool keptLists = new IntListPool();
        LongIntMap keptSlots = new LongIntMap();
        List<ListAppendTrace> kept = new ArrayList<>();
        for (ListAppendTrace t : traces) {
            if (t.lastTouched() >= cut) {
                t.evictBelow(cut, keptWaiters, keptLists);
                keptSlots.put(t.key(), kept.size());
                kept.add(t);
            } else {
                settling.dropped(t.key());
            }
        }
        slots = keptSlots;
        traces = kept;
        waiters = keptWaiters;
        lists = keptLists;
        evicted = true;
    }
}
