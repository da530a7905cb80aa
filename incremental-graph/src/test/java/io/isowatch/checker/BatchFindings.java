package io.isowatch.checker;

import io.isowatch.checker.BatchHistory.Txn;
import io.isowatch.history.MicroOp;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The anomalies of {@link BatchReference} that are not cycles, each restating one Elle function
 * (named in its Javadoc) over the whole history at once.
 */
final class BatchFindings {

    private BatchFindings() {
    }

    static void addAll(BatchReference ref) {
        if (!ref.incompatibleKeys().isEmpty()) {
            ref.found("incompatible-order");
        }
        for (Txn t : ref.txns()) {
            if (t.ok()) {
                g1a(ref, t);
                g1b(ref, t);
                if (internal(t.value())) {
                    ref.found("internal");
                }
                if (futureRead(t.value())) {
                    ref.found("future-read");
                }
                garbage(ref, t);
            }
            if (t.possible() && duplicates(t.value())) {
                ref.found("duplicate-elements");
            }
        }
        for (long key : ref.keysWithDirtyUpdateOrder()) {
            if (dirtyUpdate(ref, key)) {
                ref.found("dirty-update");
            }
        }
        if (lostUpdate(ref.txns())) {
            ref.found("lost-update");
        }
    }

    /** Elle's {@code g1a-cases}: an ok read holds an element whose writer failed. */
    private static void g1a(BatchReference ref, Txn t) {
        for (MicroOp m : t.value()) {
            if (m instanceof MicroOp.Read r && r.known()) {
                for (long e : r.values()) {
                    Txn w = ref.invokedWriter(r.key(), e);
                    if (w != null && w.type() == OpType.FAIL) {
                        ref.found("G1a");
                    }
                }
            }
        }
    }

    /** Elle's {@code g1b-cases}: an ok read ends in another txn's non-final append to that key. */
    private static void g1b(BatchReference ref, Txn t) {
        for (MicroOp m : t.value()) {
            if (m instanceof MicroOp.Read r && r.known() && r.length() > 0) {
                long last = r.values()[r.length() - 1];
                Txn w = ref.invokedWriter(r.key(), last);
                if (w != null && w != t && intermediate(w.invoke.value(), r.key(), last)) {
                    ref.found("G1b");
                }
            }
        }
    }

    private static boolean intermediate(List<MicroOp> mops, long key, long element) {
        boolean seen = false;
        for (MicroOp m : mops) {
            if (m instanceof MicroOp.Append a && a.key() == key) {
                if (seen) {
                    return true;
                }
                seen = a.value() == element;
            }
        }
        return false;
    }

    /**
     * Elle's {@code op-int-case}: per key, the expected state is the last read followed by the
     * appends since, or with no read yet, those appends after an unknown prefix.
     */
    static boolean internal(List<MicroOp> mops) {
        Map<Long, List<Long>> state = new HashMap<>();
        Map<Long, Boolean> unknownPrefix = new HashMap<>();
        for (MicroOp m : mops) {
            if (m instanceof MicroOp.Append a) {
                if (!state.containsKey(a.key())) {
                    state.put(a.key(), new ArrayList<>());
                    unknownPrefix.put(a.key(), true);
                }
                state.get(a.key()).add(a.value());
            } else if (m instanceof MicroOp.Read r && r.known()) {
                List<Long> s = state.get(r.key());
                List<Long> v = BatchReference.list(r.values());
                if (s != null) {
                    boolean bad = unknownPrefix.get(r.key())
                            ? v.size() < s.size() || !v.subList(v.size() - s.size(), v.size()).equals(s)
                            : !s.equals(v);
                    if (bad) {
                        return true;
                    }
                }
                state.put(r.key(), new ArrayList<>(v));
                unknownPrefix.put(r.key(), false);
            }
        }
        return false;
    }

    /** Elle's {@code op-future-read-case}: a read holds an element this txn appends later. */
    static boolean futureRead(List<MicroOp> mops) {
        Map<Long, Set<Long>> read = new HashMap<>();
        for (MicroOp m : mops) {
            if (m instanceof MicroOp.Append a) {
                if (read.getOrDefault(a.key(), Set.of()).contains(a.value())) {
                    return true;
                }
            } else if (m instanceof MicroOp.Read r && r.known()) {
                for (long e : r.values()) {
                    read.computeIfAbsent(r.key(), k -> new HashSet<>()).add(e);
                }
            }
        }
        return false;
    }

    /** Elle's {@code duplicates}: a read holds some element twice. */
    private static boolean duplicates(List<MicroOp> mops) {
        for (MicroOp m : mops) {
            if (m instanceof MicroOp.Read r && r.known()
                    && new HashSet<>(BatchReference.list(r.values())).size() < r.length()) {
                return true;
            }
        }
        return false;
    }

    /** isowatch's garbage-read: an ok read holds an element that no invocation appended to that key. */
    private static void garbage(BatchReference ref, Txn t) {
        for (MicroOp m : t.value()) {
            if (m instanceof MicroOp.Read r && r.known()) {
                for (long e : r.values()) {
                    if (ref.invokedWriter(r.key(), e) == null) {
                        ref.found("garbage-read");
                    }
                }
            }
        }
    }

    /**
     * Elle's {@code dirty-update-cases}: walking the key's longest read of any client op
     * ({@link BatchReference#dirtyUpdateOrder}) from a committed initial state, an ok writer
     * right after a failed one (info writers in between skipped). Writers that never completed,
     * and elements nobody appended, count as info.
     */
    private static boolean dirtyUpdate(BatchReference ref, long key) {
        OpType state = OpType.OK;
        for (long e : ref.dirtyUpdateOrder(key)) {
            Txn w = ref.invokedWriter(key, e);
            OpType t = w == null || w.type() == null ? OpType.INFO : w.type();
            if (t == OpType.INFO) {
                continue;
            }
            if (state == OpType.FAIL && t == OpType.OK) {
                return true;
            }
            state = t;
        }
        return false;
    }

    /**
     * Elle's {@code lost-update-cases}: two ok txns that read the same value of a key (their
     * first read of it) and then wrote it. As in Elle, an append before any read of the key does
     * not count as the write; the first append after the read does.
     */
    private static boolean lostUpdate(List<Txn> txns) {
        Map<Long, Map<List<Long>, Integer>> counts = new HashMap<>();
        for (Txn t : txns) {
            if (!t.ok()) {
                continue;
            }
            Map<Long, List<Long>> reads = new HashMap<>();
            Set<Long> writes = new HashSet<>();
            for (MicroOp m : t.value()) {
                List<Long> readValue = reads.get(m.key());
                if (m instanceof MicroOp.Append && !writes.contains(m.key())) {
                    if (readValue != null) {
                        int n = counts.computeIfAbsent(m.key(), k -> new HashMap<>()).merge(readValue, 1, Integer::sum);
                        if (n >= 2) {
                            return true;
                        }
                        writes.add(m.key());
                    }
                } else if (m instanceof MicroOp.Read r && r.known() && readValue == null) {
                    reads.put(r.key(), BatchReference.list(r.values()));
                }
            }
        }
        return false;
    }
}
