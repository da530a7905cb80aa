package io.isowatch.history;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The immutable micro-op list every {@link Op} holds, with a few facts about it found once,
 * when the op is made: where it is read (in {@code check}, on the reading thread, which has time
 * to spare; the checking thread sets the pace). The checker asks these facts several times per
 * transaction, and most transactions let it skip a check outright: a transaction that touches
 * each key once can break no rule that compares its own steps. One class for every op's list
 * also keeps the checker's list walks monomorphic, which the JIT compiles once instead of again
 * for each list class it meets.
 */
public final class MicroOpList extends AbstractList<MicroOp> implements RandomAccess {

    private static final int HAS_APPEND = 1;
    private static final int HAS_WRITE = 2;
    private static final int HAS_UNKNOWN_READ = 4;
    private static final int MAY_REPEAT_KEY = 8;
    /** Beyond this many micro-ops, repeated keys are assumed rather than looked for (O(n^2)). */
    private static final int KEY_SCAN_LIMIT = 16;

    private static final MicroOpList EMPTY = new MicroOpList(new MicroOp[0]);

    private final MicroOp[] steps;
    private final int facts;

    private MicroOpList(MicroOp[] steps) {
        this.steps = steps;
        this.facts = factsOf(steps);
    }

    /** An immutable copy of {@code mops} (the list itself when it is one already); no null element. */
    public static MicroOpList of(List<MicroOp> mops) {
        return mops instanceof MicroOpList list ? list : adopt(mops.toArray(new MicroOp[0]));
    }

    /** A list of the first {@code count} of {@code steps} (copied; no null among them). */
    public static MicroOpList copyOf(MicroOp[] steps, int count) {
        return adopt(Arrays.copyOf(steps, count));
    }

    /** The list over {@code steps}, an array nobody else holds. */
    private static MicroOpList adopt(MicroOp[] steps) {
        if (steps.length == 0) {
            return EMPTY;
        }
        for (MicroOp m : steps) {
            Objects.requireNonNull(m, "micro-op");
        }
        return new MicroOpList(steps);
    }

    @Override
    public MicroOp get(int index) {
        return steps[index];
    }

    @Override
    public int size() {
        return steps.length;
    }

    /** Whether {@code mops} holds an append. */
    public static boolean hasAppend(List<MicroOp> mops) {
        return (factsOf(mops) & HAS_APPEND) != 0;
    }

    /** Whether {@code mops} holds a register write. */
    public static boolean hasWrite(List<MicroOp> mops) {
        return (factsOf(mops) & HAS_WRITE) != 0;
    }

    /** Whether {@code mops} holds an append or a register write. */
    public static boolean writes(List<MicroOp> mops) {
        return (factsOf(mops) & (HAS_APPEND | HAS_WRITE)) != 0;
    }

    /** Whether {@code mops} holds a read whose result is unknown ({@code nil}). */
    public static boolean hasUnknownRead(List<MicroOp> mops) {
        return (factsOf(mops) & HAS_UNKNOWN_READ) != 0;
    }

    /**
     * False only when every micro-op of {@code mops} touches another key: then no step can
     * disagree with, or be overwritten by, another step of its own transaction.
     */
    public static boolean mayRepeatKey(List<MicroOp> mops) {
        return (factsOf(mops) & MAY_REPEAT_KEY) != 0;
    }

    /** Small enough to inline: the facts of an op's list are a field read. */
    private static int factsOf(List<MicroOp> mops) {
        return mops instanceof MicroOpList list ? list.facts : of(mops).facts;
    }

    private static int factsOf(MicroOp[] steps) {
        int facts = steps.length > KEY_SCAN_LIMIT ? MAY_REPEAT_KEY : 0;
        for (int i = 0; i < steps.length; i++) {
            MicroOp m = steps[i];
            if (m instanceof MicroOp.Append) {
                facts |= HAS_APPEND;
            } else if (m instanceof MicroOp.Write) {
                facts |= HAS_WRITE;
            } else if (!((MicroOp.Read) m).known()) {
                facts |= HAS_UNKNOWN_READ;
            }
            if ((facts & MAY_REPEAT_KEY) == 0) {
                for (int j = 0; j < i; j++) {
                    if (steps[j].key() == m.key()) {
                        facts |= MAY_REPEAT_KEY;
                        break;
                    }
                }
            }
        }
        return facts;
    }
}
