package io.isowatch.explain;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;

/**
 * Ops and their parts as Jepsen EDN, the way Elle's {@code pr-str} prints them, e.g.
 * {@code {:index 3, :time 100, :type :ok, :process 0, :f :txn, :value [[:append 255 8] [:r 256 [1 2]]]}}.
 *
 * <p>{@code :time} is left out when the op has none (-1). An unknown read prints as {@code nil}.
 * Every method is a pure function; cost is linear in the size of the op.
 *
 * <p>The methods taking {@code shown} are for explanations: a list longer than {@code shown}
 * prints its first and last {@link #ENDS} elements around a count of the rest,
 * {@code [1 2 ... 999900 more ... 999999 1000000]}. Every finding about a read names it, and a
 * read of a million elements printed whole in each of them makes megabytes of text that nobody
 * reads (Elle prints them whole). The methods without it print everything, as history files need.
 */
public final class OpText {

    /** Lists up to this long are explained whole ({@code shown} in the methods that take it). */
    public static final int EXPLAINED = 1000;
    /** The elements a list cut short keeps at each end. */
    static final int ENDS = 50;
    private static final int WHOLE = Integer.MAX_VALUE;

    private OpText() {
    }

    /** The op as EDN, guessing list or register notation from the op itself. */
    public static String render(Op op, AtomTable atoms) {
        return render(op, atoms, Notation.of(op));
    }

    /** The op as EDN in the given notation. */
    public static String render(Op op, AtomTable atoms, Notation notation) {
        return render(op, atoms, notation, WHOLE);
    }

    /** The op as EDN in the given notation, its lists longer than {@code shown} cut short. */
    public static String render(Op op, AtomTable atoms, Notation notation, int shown) {
        StringBuilder sb = new StringBuilder(64 + 16 * op.value().size());
        sb.append("{:index ").append(op.index());
        if (op.time() != -1) {
            sb.append(", :time ").append(op.time());
        }
        sb.append(", :type :").append(op.type().jepsenName())
                .append(", :process ").append(op.process())
                .append(", :f :txn, :value [");
        for (int i = 0; i < op.value().size(); i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(mop(op.value().get(i), atoms, notation, shown));
        }
        return sb.append("]}").toString();
    }

    /** One micro-op as EDN: {@code [:append 1 2]}, {@code [:r 1 [2 3]]}, {@code [:w 1 2]}. */
    public static String mop(MicroOp mop, AtomTable atoms, Notation notation) {
        return mop(mop, atoms, notation, WHOLE);
    }

    private static String mop(MicroOp mop, AtomTable atoms, Notation notation, int shown) {
        String k = atoms.render(mop.key());
        if (mop instanceof MicroOp.Append a) {
            return "[:append " + k + " " + atoms.render(a.value()) + "]";
        }
        if (mop instanceof MicroOp.Write w) {
            return "[:w " + k + " " + atoms.render(w.value()) + "]";
        }
        MicroOp.Read r = (MicroOp.Read) mop;
        return "[:r " + k + " " + readValue(r.values(), atoms, notation, shown) + "]";
    }

    /**
     * One micro-op the short way Elle's pictures label it: {@code a 1 2}, {@code r 1 [2 3]},
     * {@code w 1 2}. Lists longer than {@link #EXPLAINED} are cut short.
     */
    public static String shortMop(MicroOp mop, AtomTable atoms, Notation notation) {
        String k = atoms.render(mop.key());
        if (mop instanceof MicroOp.Append a) {
            return "a " + k + " " + atoms.render(a.value());
        }
        if (mop instanceof MicroOp.Write w) {
            return "w " + k + " " + atoms.render(w.value());
        }
        MicroOp.Read r = (MicroOp.Read) mop;
        return "r " + k + " " + readValue(r.values(), atoms, notation, EXPLAINED);
    }

    /**
     * What a read saw: {@code nil} when unknown; a list {@code [1 2]}, or in register notation
     * the single value ({@code nil} when there is none).
     */
    public static String readValue(long[] values, AtomTable atoms, Notation notation) {
        return readValue(values, atoms, notation, WHOLE);
    }

    /** As {@link #readValue(long[], AtomTable, Notation)}, a list longer than {@code shown} cut short. */
    public static String readValue(long[] values, AtomTable atoms, Notation notation, int shown) {
        if (values == null) {
            return "nil";
        }
        if (notation == Notation.RW_REGISTER) {
            if (values.length == 0) {
                return "nil";
            }
            if (values.length == 1) {
                return atoms.render(values[0]);
            }
        }
        return list(values, atoms, shown);
    }

    /** A list of atoms as an EDN vector: {@code [1 2 3]}, {@code []}. */
    public static String list(long[] values, AtomTable atoms) {
        return list(values, atoms, WHOLE);
    }

    /** As {@link #list(long[], AtomTable)}, cut short when longer than {@code shown}. */
    public static String list(long[] values, AtomTable atoms, int shown) {
        boolean cut = values.length > Math.max(shown, 2 * ENDS);
        int head = cut ? ENDS : values.length;
        StringBuilder sb = new StringBuilder(2 + 4 * (cut ? 2 * ENDS + 4 : values.length)).append('[');
        for (int i = 0; i < head; i++) {
            sb.append(i > 0 ? " " : "").append(atoms.render(values[i]));
        }
        if (cut) {
            sb.append(" ... ").append(values.length - 2 * ENDS).append(" more ...");
            for (int i = values.length - ENDS; i < values.length; i++) {
                sb.append(' ').append(atoms.render(values[i]));
            }
        }
        return sb.append(']').toString();
    }
}
