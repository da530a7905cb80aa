package io.isowatch.job.serde;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The one {@link AtomTable} of this JVM, shared by every decoder and serializer of the job.
 *
 * <p>String atoms are only meaningful relative to the table that made them, and Flink hands a
 * record from the Kafka decoder to serializers of other tasks in the same task manager. So all
 * of them intern into this table. Across JVMs nothing is shared: {@code BinaryEventCodec} writes
 * string atoms as text and the receiving JVM interns them into its own table. Consequently a
 * string atom must never be used as a partitioning key (its value differs between JVMs); later
 * stages key by the atom's text.
 *
 * <p>Static mutable state is a deliberate exception here (the core has none): it is the price of
 * atoms as primitive longs. Access goes through {@link #locked}, as {@code AtomTable} is not
 * thread-safe. The table only grows, by the number of distinct string keys and values seen;
 * integer-only histories never touch it.
 */
public final class JobAtoms {

    private static final AtomTable TABLE = new AtomTable();

    private JobAtoms() {
    }

    /** Runs {@code action} on the shared table while holding its lock. */
    public static <T> T locked(Function<AtomTable, T> action) {
        synchronized (TABLE) {
            return action.apply(TABLE);
        }
    }

    /** The shared table itself; use it only while holding {@link #lock()}. */
    static AtomTable table() {
        return TABLE;
    }

    /** The monitor guarding {@link #table()}. */
    static Object lock() {
        return TABLE;
    }

    /** True when any key or value of the op is a string atom. */
    public static boolean hasStrings(Op op) {
        for (MicroOp m : op.value()) {
            if (AtomTable.isString(m.key())) {
                return true;
            }
            if (m instanceof MicroOp.Append a && AtomTable.isString(a.value())) {
                return true;
            }
            if (m instanceof MicroOp.Write w && AtomTable.isString(w.value())) {
                return true;
            }
            if (m instanceof MicroOp.Read r && r.values() != null) {
                for (long v : r.values()) {
                    if (AtomTable.isString(v)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Re-codes the string atoms of an op made with {@code from} into the shared table; returns
     * the op itself when it has none.
     */
    public static Op intern(Op op, AtomTable from) {
        if (!hasStrings(op)) {
            return op;
        }
        synchronized (TABLE) {
            List<MicroOp> mops = new ArrayList<>(op.value().size());
            for (MicroOp m : op.value()) {
                long key = recode(m.key(), from);
                if (m instanceof MicroOp.Append a) {
                    mops.add(new MicroOp.Append(key, recode(a.value(), from)));
                } else if (m instanceof MicroOp.Write w) {
                    mops.add(new MicroOp.Write(key, recode(w.value(), from)));
                } else {
                    long[] values = ((MicroOp.Read) m).values();
                    long[] copy = null;
                    if (values != null) {
                        copy = new long[values.length];
                        for (int i = 0; i < values.length; i++) {
                            copy[i] = recode(values[i], from);
                        }
                    }
                    mops.add(new MicroOp.Read(key, copy));
                }
            }
            return new Op(op.index(), op.time(), op.type(), op.process(), mops, op.sourceLine());
        }
    }

    private static long recode(long atom, AtomTable from) {
        return AtomTable.isString(atom) ? TABLE.ofString((String) from.valueOf(atom)) : atom;
    }
}
