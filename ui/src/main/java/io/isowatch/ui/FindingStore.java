package io.isowatch.ui;

import io.isowatch.anomaly.Boundary;
import io.isowatch.anomaly.ConsistencyModels;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The findings the console has seen, in arrival order, each id once.
 *
 * <p>A finding id repeated (the job restored from a checkpoint re-emits what it found after it)
 * is dropped. Memory is bounded: past {@code capacity} findings the oldest are forgotten, and a
 * repeat of a forgotten one would show again. Counts per type cover every finding ever added.
 * Each added finding gets the next sequence number, which a Server-Sent Events stream uses as its
 * event id. Thread-safe: followers add, request handlers read and wait.
 */
public final class FindingStore {

    /** One stored finding and its sequence number (1, 2, ...). */
    public record Entry(long seq, FindingView view) {
    }

    /**
     * What one history's findings rule out so far.
     *
     * @param history    the history (agent) name, "" for a single history
     * @param findings   findings held for it
     * @param types      findings per anomaly type
     * @param ruledOut   the models ruled out by all its anomalies together, as Elle's verdict splits them
     * @param ruledOutBy for each ruled-out model, the ids of (at most {@value #MAX_IDS_PER_MODEL}) findings that rule it out
     * @param firstDetectedAtMillis the earliest detection, epoch ms
     * @param lastDetectedAtMillis  the latest detection, epoch ms
     * @param agents     the agents whose transactions its findings name, when several agents record it
     */
    public record HistorySummary(String history, long findings, SortedMap<String, Long> types, Boundary ruledOut,
                                 SortedMap<String, List<String>> ruledOutBy, long firstDetectedAtMillis,
                                 long lastDetectedAtMillis, SortedSet<String> agents) {
    }

    /** How many finding ids a history summary lists per ruled-out model. */
    public static final int MAX_IDS_PER_MODEL = 20;

    private final int capacity;
    private final Deque<Entry> entries = new ArrayDeque<>();
    private final Map<String, Entry> byId = new HashMap<>();
    private final SortedMap<String, Long> counts = new TreeMap<>();
    private long seq;
    private long repeats;
    private long unreadable;

    /** A store holding at most {@code capacity} findings. */
    public FindingStore(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** Adds a finding; false (and nothing changes but the repeat count) when its id is already held. */
    public synchronized boolean add(FindingView view) {
        if (byId.containsKey(view.id())) {
            repeats++;
            return false;
        }
        Entry e = new Entry(++seq, view);
        entries.addLast(e);
        byId.put(view.id(), e);
        counts.merge(view.alert().type(), 1L, Long::sum);
        if (entries.size() > capacity) {
            byId.remove(entries.removeFirst().view().id());
        }
        notifyAll();
        return true;
    }

    /** The finding with this id, or null. */
    public synchronized FindingView get(String id) {
        Entry e = byId.get(id);
        return e == null ? null : e.view();
    }

    /** Held entries with a sequence number above {@code afterSeq}, oldest first. */
    public synchronized List<Entry> after(long afterSeq) {
        List<Entry> out = new ArrayList<>();
        Iterator<Entry> it = entries.descendingIterator();
        while (it.hasNext()) {
            Entry e = it.next();
            if (e.seq() <= afterSeq) {
                break;
            }
            out.add(e);
        }
        Collections.reverse(out);
        return out;
    }

    /** Held findings, newest first. */
    public synchronized List<FindingView> newestFirst() {
        List<FindingView> out = new ArrayList<>(entries.size());
        entries.descendingIterator().forEachRemaining(e -> out.add(e.view()));
        return out;
    }

    /**
     * Waits until a finding with a sequence number above {@code afterSeq} is added, or the
     * timeout passes; returns the latest sequence number.
     */
    public synchronized long await(long afterSeq, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (seq <= afterSeq) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                break;
            }
            wait(left);
        }
        return seq;
    }

    /** Findings ever added, per anomaly type. */
    public synchronized SortedMap<String, Long> countsByType() {
        return new TreeMap<>(counts);
    }

    /** How many added findings were dropped as repeats of a held id. */
    public synchronized long repeats() {
        return repeats;
    }

    /** Counts a record that could not be read as an alert (the intake skips it). */
    public synchronized void noteUnreadable() {
        unreadable++;
    }

    /** Records skipped because they were no alert this console reads. */
    public synchronized long unreadable() {
        return unreadable;
    }

    /** How many findings are held now (at most the capacity). */
    public synchronized int size() {
        return entries.size();
    }

    /** The most findings held at once; older ones are forgotten. */
    public int capacity() {
        return capacity;
    }

    /** One summary per history among the held findings, by history name. */
    public synchronized List<HistorySummary> histories() {
        Map<String, List<FindingView>> byHistory = new TreeMap<>();
        for (Entry e : entries) {
            byHistory.computeIfAbsent(e.view().alert().history(), h -> new ArrayList<>()).add(e.view());
        }
        List<HistorySummary> out = new ArrayList<>();
        byHistory.forEach((h, views) -> out.add(summary(h, views)));
        return out;
    }

    private static HistorySummary summary(String history, List<FindingView> views) {
        SortedMap<String, Long> types = new TreeMap<>();
        SortedMap<String, List<String>> by = new TreeMap<>();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        SortedSet<String> agents = new TreeSet<>();
        for (FindingView v : views) {
            types.merge(v.alert().type(), 1L, Long::sum);
            agents.addAll(v.alert().agents());
            for (String m : v.ruledOutModels()) {
                List<String> ids = by.computeIfAbsent(m, k -> new ArrayList<>());
                if (ids.size() < MAX_IDS_PER_MODEL) {
                    ids.add(v.id());
                }
            }
            first = Math.min(first, v.alert().detectedAtMillis());
            last = Math.max(last, v.alert().detectedAtMillis());
        }
        // A type this build's lattice does not know (a newer job's) rules out nothing we can name.
        Set<String> known = new HashSet<>();
        for (String t : types.keySet()) {
            if (isKnown(t)) {
                known.add(t);
            }
        }
        Boundary ruledOut = known.isEmpty() ? new Boundary(new TreeSet<>(), new TreeSet<>())
                : ConsistencyModels.friendlyBoundary(known);
        return new HistorySummary(history, views.size(), types, ruledOut, by, first, last, agents);
    }

    private static boolean isKnown(String type) {
        try {
            ConsistencyModels.checkAnomalyName(type);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
