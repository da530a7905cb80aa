package io.isowatch.checker;

import io.isowatch.collect.IntList;
import io.isowatch.collect.LongIntMap;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.MicroOp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Elle's lost-update rule: two committed transactions that read the same version of a key before
 * their first write to it, and then both wrote it. The version order does not matter, so this is
 * decided as soon as the second such transaction commits.
 *
 * <p>The caller names the version read by a long (a list's length, a register's value). Memory is
 * one map entry per (key, version) that some transaction read and then wrote, holding that
 * transaction; only a second reader (a lost update, rare) makes a group with its own lists.
 */
final class LostUpdates {

    /**
     * Per key, per version: the one transaction that read it and wrote the key (an id, >= 0), or
     * {@code -2 - g} once a second one made group {@code g}.
     */
    private final Map<Long, LongIntMap> byKey = new HashMap<>();
    private final List<long[]> groupKeyVersion = new ArrayList<>();
    private final List<IntList> groupMembers = new ArrayList<>();
    private final List<Integer> reported = new ArrayList<>();

    /**
     * Records that committed transaction {@code txn} read version {@code version} at micro-op
     * {@code read}. Counts, as in Elle, only when that is the transaction's first read of the key
     * (a write of its own before it does not matter) and a write of the key follows it. Returns
     * the group it made (the second member to arrive), or -1; later members join silently and
     * {@link #groups()} lists them all.
     */
    int record(int txn, List<MicroOp> mops, int read, long version) {
        if (!firstRead(mops, read) || !writesLater(mops, read)) {
            return -1;
        }
        long key = mops.get(read).key();
        LongIntMap readers = byKey.computeIfAbsent(key, k -> new LongIntMap(4));
        int seen = readers.get(version);
        if (seen == LongIntMap.MISSING) {
            readers.put(version, txn);
            return -1;
        }
        if (seen <= -2) {
            groupMembers.get(-2 - seen).add(txn);
            return -1;
        }
        int g = groupMembers.size();
        readers.put(version, -2 - g);
        groupKeyVersion.add(new long[] {key, version});
        IntList members = new IntList(2);
        members.add(seen);
        members.add(txn);
        groupMembers.add(members);
        reported.add(g);
        return g;
    }

    private static boolean firstRead(List<MicroOp> mops, int i) {
        long key = mops.get(i).key();
        for (int j = 0; j < i; j++) {
            if (mops.get(j).key() == key && mops.get(j) instanceof MicroOp.Read) {
                return false;
            }
        }
        return true;
    }

    private static boolean writesLater(List<MicroOp> mops, int i) {
        long key = mops.get(i).key();
        for (int j = i + 1; j < mops.size(); j++) {
            MicroOp m = mops.get(j);
            if (m.key() == key && !(m instanceof MicroOp.Read)) {
                return true;
            }
        }
        return false;
    }

    /** How a workload shows the version read: a list for list-append, one value or nil for a register. */
    interface VersionText {
        long[] value(long key, long version);
    }

    /** The finding for a group, its members shown by {@code txns}. */
    Finding.LostUpdate finding(int group, VersionText versions, java.util.function.IntFunction<Txn> txns) {
        long key = key(group);
        return new Finding.LostUpdate(key, versions.value(key, value(group)),
                members(group).stream().map(txns::apply).toList());
    }

    /** Every group with two or more members, as findings, for the verdict. */
    List<Finding> findings(VersionText versions, java.util.function.IntFunction<Txn> txns) {
        List<Finding> out = new ArrayList<>();
        for (int g : reported) {
            out.add(finding(g, versions, txns));
        }
        return out;
    }

    /** Groups with at least two members, in the order they reached two. */
    List<Integer> groups() {
        return reported;
    }

    long key(int group) {
        return groupKeyVersion.get(group)[0];
    }

    long value(int group) {
        return groupKeyVersion.get(group)[1];
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
