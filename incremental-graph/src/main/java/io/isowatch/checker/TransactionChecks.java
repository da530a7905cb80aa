package io.isowatch.checker;

import io.isowatch.history.MicroOp;
import io.isowatch.history.MicroOpList;

import java.util.Arrays;
import java.util.List;

/**
 * Checks a committed transaction on its own, as Elle's internal and future-read rules do.
 * Transactions are short, so these scan their micro-ops directly: O(n^2 + elements read). Each
 * rule compares steps on one key, so a transaction that touches every key once (most of them;
 * {@link MicroOpList#mayRepeatKey}, found when the op was read) passes without a scan.
 */
final class TransactionChecks {

    private static final long[] NOTHING = new long[0];

    private TransactionChecks() {
    }

    /** An internal-consistency violation: the read at {@code mopIndex} should have been {@code expected}. */
    record InternalCase(int mopIndex, long[] expected, boolean unknownPrefix) {
    }

    /** A read at {@code mopIndex} that holds {@code element}, which this transaction appends later. */
    record FutureReadCase(int mopIndex, long element) {
    }

    /**
     * The first read that disagrees with the transaction's own earlier steps on that key: its
     * latest earlier read followed by its appends since, or, with no earlier read, those appends
     * as a suffix. Null when there is none.
     */
    static InternalCase internal(List<MicroOp> mops) {
        if (!MicroOpList.mayRepeatKey(mops)) {
            return null;
        }
        for (int i = 0; i < mops.size(); i++) {
            if (!(mops.get(i) instanceof MicroOp.Read read) || !read.known()) {
                continue;
            }
            // Find the latest earlier read of the key and count the appends since, allocating
            // nothing for the usual read that nothing of its own precedes.
            long key = read.key();
            int baseAt = -1;
            int appends = 0;
            for (int j = i - 1; j >= 0; j--) {
                MicroOp earlier = mops.get(j);
                if (earlier.key() != key) {
                    continue;
                }
                if (earlier instanceof MicroOp.Append) {
                    appends++;
                } else if (earlier instanceof MicroOp.Read r && r.known()) {
                    baseAt = j;
                    break;
                }
            }
            if (baseAt < 0 && appends == 0) {
                continue;
            }
            long[] base = baseAt < 0 ? NOTHING : ((MicroOp.Read) mops.get(baseAt)).values();
            if (!matchesOwnSteps(mops, i, baseAt, base, appends)) {
                return new InternalCase(i, expected(mops, i, baseAt, base, appends), baseAt < 0);
            }
        }
        return null;
    }

    /**
     * Whether the read at {@code i} holds {@code base} followed by the transaction's
     * {@code appends} appends of its key after {@code baseAt} (all of it when there was an
     * earlier read, else as a suffix), compared in place: most reads pass, and allocate nothing.
     */
    private static boolean matchesOwnSteps(List<MicroOp> mops, int i, int baseAt, long[] base, int appends) {
        MicroOp.Read read = (MicroOp.Read) mops.get(i);
        long[] values = read.values();
        int length = base.length + appends;
        if (baseAt >= 0 ? values.length != length : values.length < length) {
            return false;
        }
        int at = values.length - length;
        for (long b : base) {
            if (values[at++] != b) {
                return false;
            }
        }
        for (int j = baseAt + 1; j < i; j++) {
            if (mops.get(j).key() == read.key() && mops.get(j) instanceof MicroOp.Append a && values[at++] != a.value()) {
                return false;
            }
        }
        return true;
    }

    /** What the read at {@code i} should have held, for the finding. */
    private static long[] expected(List<MicroOp> mops, int i, int baseAt, long[] base, int appends) {
        long[] expected = Arrays.copyOf(base, base.length + appends);
        int next = base.length;
        for (int j = baseAt + 1; j < i; j++) {
            if (mops.get(j).key() == mops.get(i).key() && mops.get(j) instanceof MicroOp.Append a) {
                expected[next++] = a.value();
            }
        }
        return expected;
    }

    /** The first element a read holds that the same transaction appends only later; null if none. */
    static FutureReadCase futureRead(List<MicroOp> mops) {
        if (!MicroOpList.mayRepeatKey(mops)) {
            return null;
        }
        for (int i = 0; i < mops.size(); i++) {
            if (!(mops.get(i) instanceof MicroOp.Append append)) {
                continue;
            }
            for (int j = 0; j < i; j++) {
                if (mops.get(j) instanceof MicroOp.Read r && r.known() && r.key() == append.key()) {
                    for (long e : r.values()) {
                        if (e == append.value()) {
                            return new FutureReadCase(j, e);
                        }
                    }
                }
            }
        }
        return null;
    }

    /**
     * True when micro-op {@code i} is followed by a write (an append or a register write) of
     * the same key in the same transaction. For a write, it is then an intermediate version,
     * which no other transaction should ever read (G1b); for a read, the transaction read the
     * key and then wrote it (what a lost update is made of).
     */
    static boolean writtenAgainLater(List<MicroOp> mops, int i) {
        if (!MicroOpList.mayRepeatKey(mops)) {
            return false;
        }
        long key = mops.get(i).key();
        for (int j = i + 1; j < mops.size(); j++) {
            if (!(mops.get(j) instanceof MicroOp.Read) && mops.get(j).key() == key) {
                return true;
            }
        }
        return false;
    }
}
