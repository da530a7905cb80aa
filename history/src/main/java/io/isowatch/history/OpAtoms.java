package io.isowatch.history;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * The one walk over an op's atoms: every key and value of its micro-ops, a read's values
 * included. Counting string atoms and re-coding them from one table into another are both this
 * walk, so a new kind of micro-op is taught to it once.
 *
 * <p>Cost is linear in the op's atoms; {@link #map} allocates nothing for an op it leaves as is,
 * so counting (a map that changes nothing) allocates only its counter.
 */
public final class OpAtoms {

    private OpAtoms() {
    }

    /** The number of string keys and values in the op, counting repeats; 0 for an integer-only op. */
    public static int stringCount(Op op) {
        StringCounter counter = new StringCounter();
        map(op, counter);
        return counter.n;
    }

    /** Counts string atoms and changes none, so {@link #map} builds nothing. */
    private static final class StringCounter implements LongUnaryOperator {
        int n;

        @Override
        public long applyAsLong(long atom) {
            if (AtomTable.isString(atom)) {
                n++;
            }
            return atom;
        }
    }

    /**
     * The op with every atom replaced by {@code f} of it, the same op when {@code f} changes
     * none; everything else (index, time, type, process, source line) is kept.
     */
    public static Op map(Op op, LongUnaryOperator f) {
        List<MicroOp> mops = null;
        List<MicroOp> value = op.value();
        for (int i = 0; i < value.size(); i++) {
            MicroOp m = value.get(i);
            MicroOp mapped = map(m, f);
            if (mapped != m && mops == null) {
                mops = new ArrayList<>(value.subList(0, i));
            }
            if (mops != null) {
                mops.add(mapped);
            }
        }
        return mops == null ? op : new Op(op.index(), op.time(), op.type(), op.process(), mops, op.sourceLine());
    }

    private static MicroOp map(MicroOp m, LongUnaryOperator f) {
        long key = f.applyAsLong(m.key());
        if (m instanceof MicroOp.Append a) {
            long v = f.applyAsLong(a.value());
            return key == a.key() && v == a.value() ? m : new MicroOp.Append(key, v);
        }
        if (m instanceof MicroOp.Write w) {
            long v = f.applyAsLong(w.value());
            return key == w.key() && v == w.value() ? m : new MicroOp.Write(key, v);
        }
        long[] values = ((MicroOp.Read) m).values();
        long[] copy = null;
        if (values != null) {
            for (int i = 0; i < values.length; i++) {
                long v = f.applyAsLong(values[i]);
                if (v != values[i] && copy == null) {
                    copy = values.clone();
                }
                if (copy != null) {
                    copy[i] = v;
                }
            }
        }
        return key == m.key() && copy == null ? m : new MicroOp.Read(key, copy == null ? values : copy);
    }
}
