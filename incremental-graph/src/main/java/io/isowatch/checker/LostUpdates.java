package io.isowatch.checker;

import io.isowatch.collect.IntList;
import io.isowatch.collect.LongIntMap;
import io.isowatch.history.MicroOp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Elle's lost-update rule: two committed transactions that read the same value of a key before
 * their first write to it, and then both wrote it. The version order does not matter, so this
 * is decided as soon as the second such transaction commits.
 *
 * <p>A read is identified by its key and length, which is exact for reads that are prefixes of
 * the key's version order; reads that contradict the order are left to incompatible-order.
 * Memory: one map entry per (key, value read) that some transaction read and then wrote.
 */
final class LostUpdates {

    private final Map<Long, LongIntMap> byKey = new HashMap<>();
    private final List<long[]> groupKeyLength = new ArrayList<>();
    private final List<IntList> groupMembers = new ArrayList<>();
    private final List<Integer> reported = new ArrayList<>();

    /**
     * Records a committed transaction. Returns the group it completed (the second member to
     * arrive), or -1. Later members join the group silently; {@link #groups()} lists them all.
     */
    int record(int txn, List<MicroOp> mops, boolean[] prefixRead) {
        int completed = -1;
        for (int i = 0; i < mops.size(); i++) {
            if (!(mops.get(i) instanceof MicroOp.Read read) || !read.known() || !prefixRead[i]
                    || !firstTouch(mops, i) || !appendsLater(mops, i)) {
                continue;
            }
            LongIntMap groups = byKey.computeIfAbsent(read.key(), k -> new LongIntMap(4));
            int g = groups.get(read.length());
            if (g == LongIntMap.MISSING) {
                g = groupMembers.size();
                groups.put(read.length(), g);
                groupKeyLength.add(new long[] {read.key(), read.length()});
                groupMembers.add(new IntList(2));
            }
            IntList members = groupMembers.get(g);
            members.add(txn);
            if (members.size() == 2) {
                reported.add(g);
                completed = g;
            }
        }
        return completed;
    }

    private static boolean firstTouch(List<MicroOp> mops, int i) {
        long key = mops.get(i).key();
        for (int j = 0; j < i; j++) {
            if (mops.get(j).key() == key) {
                return false;
            }
        }
        return true;
    }

    private static boolean appendsLater(List<MicroOp> mops, int i) {
        long key = mops.get(i).key();
        for (int j = i + 1; j < mops.size(); j++) {
            if (mops.get(j) instanceof MicroOp.Append a && a.key() == key) {
                return true;
            }
        }
        return false;
    }

    /** Groups with at least two members, in the order they reached two. */
    List<Integer> groups() {
        return reported;
    }

    long key(int group) {
        return groupKeyLength.get(group)[0];
    }

    long[] value(int group, TxnTable.PrefixSource prefixes) {
        long[] kl = groupKeyLength.get(group);
        return prefixes.prefix(kl[0], (int) kl[1]);
    }

    List<Integer> members(int group) {
        IntList m = groupMembers.get(group);
        List<Integer> out = new ArrayList<>(m.size());
        for (int i = 0; i < m.size(); i++) {
            out.add(m.get(i));
        }
        return out;
    }
}
