package io.isowatch.checker;

import io.isowatch.collect.IntList;
import io.isowatch.collect.LongIntMap;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.MicroOp;

import java.util.ArrayList;
import java.util.List;

/**
 * Elle's lost-update rule: two committed transactions that read the same version of a key before
 * their first write to it, and then both wrote it. The version order does not matter, so this is
 * decided as soon as the second such transaction commits.
 *
 * <p>The caller names the version read by a long (a list's length, a register's value). Memory is
 * one map entry per (key, version) that some transaction read and then wrote, holding that
 * transaction; only a second reader (a lost update, rare) makes a group with its own lists.
 *
 * <p>{@link #evictBelow} forgets transactions. Any two committed transactions that read the same
 * version and then wrote the key are a lost update of the whole history, so a group keeps its
 * members that remain, and still counts as found while two remain; the versions, keys and
 * groups nobody remains in are dropped.
 */
final class LostUpdates {

    /** Each key's slot in {@code byKey}: a primitive map, so a lookup boxes nothing. */
    private LongIntMap slotOfKey = new LongIntMap();
    /**
     * Per key (by slot), per version: the one transaction that read it and wrote the key (an id,
     * >= 0), or {@code -2 - g} once a second one made group {@code g}.
     */
    private List<LongIntMap> byKey = new ArrayList<>();
    private List<long[]> groupKeyVersion = new ArrayList<>();
    private List<IntList> groupMembers = new ArrayList<>();
    private List<Integer> reported = new ArrayList<>();

    /**
     * Records that committed transaction {@code txn} read version {@code version} at micro-op
     * {@code read}. Counts, as in Elle, only when that is the transaction's first read of the key
     * (a write of its own before it does not matter) and a write of the key follows it. Returns
     * the group it made (the second member to arrive), or -1; later members join silently and
     * {@link #groups()} lists them all.
     */
    int record(int txn, List<MicroOp> mops, int read, long version) {
        if (!firstRead(mops, read) || !TransactionChecks.writtenAgainLater(mops, read)) {
            return -1;
        }
        long key = mops.get(read).key();
        LongIntMap readers = versionsOf(key);
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

    private LongIntMap versionsOf(long key) {
        int slot = slotOfKey.get(key);
        if (slot == LongIntMap.MISSING) {
            slot = byKey.size();
            slotOfKey.put(key, slot);
            byKey.add(new LongIntMap(4));
        }
        return byKey.get(slot);
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

    /**
     * Forgets the transactions below {@code cut} and renumbers the rest by {@code -cut}. A group
     * left with one member becomes that member's plain entry again: a later reader of the same
     * version then makes a new group with it, which is reported as found (a true lost update of
     * the whole history, though the whole history's checker would only have added it to the
     * group silently). A group left with none, and a plain entry whose reader is forgotten, go.
     * O(entries + members).
     */
    void evictBelow(int cut) {
        int[] renumbered = new int[groupMembers.size()];
        int[] alone = new int[groupMembers.size()];
        List<long[]> keptKeyVersion = new ArrayList<>();
        List<IntList> keptMembers = new ArrayList<>();
        for (int g = 0; g < groupMembers.size(); g++) {
            IntList members = remaining(groupMembers.get(g), cut);
            renumbered[g] = members.size() >= 2 ? keptMembers.size() : -1;
            alone[g] = members.size() == 1 ? members.get(0) : LongIntMap.MISSING;
            if (members.size() >= 2) {
                keptKeyVersion.add(groupKeyVersion.get(g));
                keptMembers.add(members);
            }
        }
        LongIntMap keptSlots = new LongIntMap();
        List<LongIntMap> keptByKey = new ArrayList<>();
        slotOfKey.forEach((key, slot) -> {
            LongIntMap kept = new LongIntMap(4);
            byKey.get(slot).forEach((version, seen) -> {
                int now = survivor(seen, cut, renumbered, alone);
                if (now != LongIntMap.MISSING) {
                    kept.put(version, now);
                }
            });
            if (kept.size() > 0) {
                keptSlots.put(key, keptByKey.size());
                keptByKey.add(kept);
            }
        });
        List<Integer> keptReported = new ArrayList<>();
        for (int g : reported) {
            if (renumbered[g] >= 0) {
                keptReported.add(renumbered[g]);
            }
        }
        slotOfKey = keptSlots;
        byKey = keptByKey;
        groupKeyVersion = keptKeyVersion;
        groupMembers = keptMembers;
        reported = keptReported;
    }

    /** What a {@code byKey} value becomes: the renumbered reader or group, or MISSING when none remains. */
    private static int survivor(int seen, int cut, int[] renumbered, int[] alone) {
        if (seen >= 0) {
            return seen >= cut ? seen - cut : LongIntMap.MISSING;
        }
        int g = -2 - seen;
        return renumbered[g] >= 0 ? -2 - renumbered[g] : alone[g];
    }

    private static IntList remaining(IntList members, int cut) {
        IntList kept = new IntList(members.size());
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i) >= cut) {
                kept.add(members.get(i) - cut);
            }
        }
        return kept;
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
