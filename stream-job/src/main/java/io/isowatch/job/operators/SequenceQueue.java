package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A history's waiting events by sequence, in sequence order: what {@link ReleaseOrder} takes from
 * and {@link WaitingEvents} checkpoints.
 *
 * <p><b>Why not a {@code TreeMap}.</b> An agent numbers its events densely and ships them in order
 * from one partition, so the events waiting at any moment are a nearly gap-free run of sequences,
 * added at the tail and taken from the head. A tree paid a boxed key, an entry and a rebalancing
 * per event: 7% of a drain's CPU samples (docs/benchmarks-archive.md). Here the run lives in a ring of slots
 * indexed by sequence modulo its power-of-two capacity, which doubles while the run spans more
 * than it holds, up to {@value #MAX_SLOTS} slots; adding, finding and taking the head cost a slot
 * access. A sequence that would stretch the ring beyond that (a numbering that jumped: an agent
 * that lost its spool, a foreign producer) waits in a small tree instead, so any input stays
 * correct and only such outliers pay the tree's price.
 *
 * <p>Sequences are unique here: the caller drops a copy of an event already waiting. Not
 * thread-safe; one task owns it.
 */
final class SequenceQueue {

    /** The ring's largest capacity: 4M slots (32 MB of references) spans far more than a bound's worth of events. */
    static final int MAX_SLOTS = 1 << 22;
    private static final int FIRST_SLOTS = 64;
    /** An empty ring up to this size is kept for the next run; a larger one was a backlog's and is dropped. */
    private static final int KEPT_SLOTS = 1 << 16;

    private HistoryEvent[] ring = new HistoryEvent[FIRST_SLOTS];
    /** The smallest and largest sequence in the ring; meaningless while it is empty. */
    private long low;
    private long high;
    private int inRing;
    /** Events whose sequence the ring cannot span; usually empty. */
    private final TreeMap<Long, HistoryEvent> outliers = new TreeMap<>();

    int size() {
        return inRing + outliers.size();
    }

    boolean isEmpty() {
        return size() == 0;
    }

    boolean contains(long sequence) {
        return inRing(sequence) != null || !outliers.isEmpty() && outliers.containsKey(sequence);
    }

    /** Adds an event; its sequence must not be waiting already. */
    void add(HistoryEvent event) {
        long s = event.sequence();
        if (inRing == 0) {
            low = s;
            high = s;
            put(s, event);
            return;
        }
        long from = Math.min(low, s);
        long to = Math.max(high, s);
        if (to - from >= MAX_SLOTS) {
            outliers.put(s, event);
            return;
        }
        while (to - from >= ring.length) {
            grow();
        }
        low = from;
        high = to;
        put(s, event);
    }

    /** Removes and returns the event of {@code sequence}; null when it is not waiting. */
    HistoryEvent remove(long sequence) {
        HistoryEvent e = inRing(sequence);
        if (e == null) {
            return outliers.isEmpty() ? null : outliers.remove(sequence);
        }
        ring[slot(sequence)] = null;
        inRing--;
        if (inRing == 0 && ring.length > KEPT_SLOTS) {
            ring = new HistoryEvent[FIRST_SLOTS]; // a backlog's ring is not kept once it has drained
        } else if (inRing > 0) {
            if (sequence == low) {
                while (ring[slot(low)] == null) {
                    low++;
                }
            } else if (sequence == high) {
                while (ring[slot(high)] == null) {
                    high--;
                }
            }
        }
        return e;
    }

    /** The waiting event with the smallest sequence; null when none waits. */
    HistoryEvent first() {
        HistoryEvent head = inRing == 0 ? null : ring[slot(low)];
        if (outliers.isEmpty()) {
            return head;
        }
        Map.Entry<Long, HistoryEvent> outlier = outliers.firstEntry();
        return head == null || outlier.getKey() < low ? outlier.getValue() : head;
    }

    /** Removes and returns the waiting event with the smallest sequence; null when none waits. */
    HistoryEvent pollFirst() {
        HistoryEvent head = first();
        return head == null ? null : remove(head.sequence());
    }

    /** Every waiting event in sequence order, as a new list. */
    List<HistoryEvent> inOrder() {
        List<HistoryEvent> all = new ArrayList<>(size());
        if (inRing > 0) {
            for (long s = low; s <= high; s++) {
                HistoryEvent e = ring[slot(s)];
                if (e != null) {
                    all.add(e);
                }
            }
        }
        if (!outliers.isEmpty()) {
            all.addAll(outliers.values());
            all.sort((a, b) -> Long.compare(a.sequence(), b.sequence()));
        }
        return all;
    }

    private HistoryEvent inRing(long sequence) {
        if (inRing == 0 || sequence < low || sequence > high) {
            return null;
        }
        return ring[slot(sequence)];
    }

    private void put(long sequence, HistoryEvent event) {
        ring[slot(sequence)] = event;
        inRing++;
    }

    private int slot(long sequence) {
        return (int) (sequence & (ring.length - 1));
    }

    /** Doubles the ring, re-placing the events it holds. */
    private void grow() {
        HistoryEvent[] old = ring;
        ring = new HistoryEvent[old.length * 2];
        if (inRing > 0) {
            for (long s = low; s <= high; s++) {
                HistoryEvent e = old[(int) (s & (old.length - 1))];
                if (e != null) {
                    ring[slot(s)] = e;
                }
            }
        }
    }
}
