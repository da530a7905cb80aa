package io.isowatch.explain;

import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;

import java.util.Locale;

/**
 * Why one transaction precedes another, in Elle's words, plus the short edge labels the pictures
 * use.
 *
 * <p>The sentences are those of Elle's pair explainers: {@code elle.list-append} for lists,
 * {@code elle.rw-register} for registers (chosen when the transaction that wrote the value did so
 * with {@code [:w k v]}), and {@code elle.core}'s process and realtime explainers.
 */
public final class StepText {

    private StepText() {
    }

    /**
     * The reason {@code a} precedes {@code b}, without the leading "a &lt; b, because", e.g.
     * {@code T2 observed T1's append of 8 to key 255}.
     *
     * @param a the name of the step's source, e.g. {@code T1}
     * @param b the name of the step's target
     */
    public static String render(Finding.Step step, String a, String b, AtomTable atoms) {
        Evidence ev = step.evidence();
        if (ev instanceof Evidence.WriteWrite ww) {
            String k = atoms.render(ww.key());
            String v = atoms.render(ww.previous());
            String v2 = atoms.render(ww.value());
            if (writes(step.to(), ww.key(), ww.value()) || writes(step.from(), ww.key(), ww.previous())) {
                return a + " set key " + k + " to " + v + ", and " + b + " set it to " + v2
                        + ", which came later in the version order";
            }
            return b + " appended " + v2 + " after " + a + " appended " + v + " to " + k;
        }
        if (ev instanceof Evidence.WriteRead wr) {
            String k = atoms.render(wr.key());
            String v = atoms.render(wr.value());
            if (writes(step.from(), wr.key(), wr.value())) {
                return a + " wrote " + k + " = " + v + ", which was read by " + b;
            }
            return b + " observed " + a + "'s append of " + v + " to key " + k;
        }
        if (ev instanceof Evidence.ReadWrite rw) {
            String k = atoms.render(rw.key());
            String v2 = atoms.render(rw.value());
            if (writes(step.to(), rw.key(), rw.value())) {
                String v = rw.initial() ? "nil" : atoms.render(rw.previous());
                return a + " read key " + k + " = " + v + ", and " + b + " set it to " + v2
                        + ", which came later in the version order";
            }
            if (rw.initial()) {
                return a + " observed the initial (nil) state of " + k + ", which " + b
                        + " created by appending " + v2;
            }
            return a + " did not observe " + b + "'s append of " + v2 + " to " + k;
        }
        if (ev instanceof Evidence.Process p) {
            return "process " + p.process() + " executed " + a + " before " + b;
        }
        Evidence.Realtime rt = (Evidence.Realtime) ev;
        Evidence.Agents on = rt.agents();
        if (on == null) {
            return a + " completed at index " + rt.completedIndex() + "," + realtimeGap(rt)
                    + " before the invocation of " + b + ", at index " + rt.invokedIndex();
        }
        // Two agents' clocks: the gap is what makes the order certain, so it is said in full.
        return a + " completed at index " + rt.completedIndex() + " on agent " + on.completedOn() + ","
                + realtimeGap(rt) + " before the invocation of " + b + ", at index " + rt.invokedIndex()
                + " on agent " + on.invokedOn() + ": more than the clock uncertainty of "
                + uncertainty(on.clockUncertaintyNanos());
    }

    /** A clock uncertainty for a sentence: {@code 100 ms}, {@code 0.25 ms}, {@code 0 ms}. */
    static String uncertainty(long nanos) {
        return new java.math.BigDecimal(nanos).movePointLeft(6).stripTrailingZeros().toPlainString() + " ms";
    }

    /**
     * Elle's gap between a completion and a later invocation: {@code " 0.003 seconds"}, or
     * {@code " just"} when the clock shows no positive gap. Elle prints nothing when either time
     * is missing, and so do we.
     */
    static String realtimeGap(Evidence.Realtime rt) {
        if (rt.completedTime() == -1 || rt.invokedTime() == -1) {
            return "";
        }
        long dt = rt.invokedTime() - rt.completedTime();
        if (dt <= 0) {
            // Elle: times are approximate, what matters is the order; a non-positive gap is "just".
            return " just";
        }
        return String.format(Locale.ROOT, " %.3f seconds", dt / 1e9);
    }

    /**
     * A short label for a picture's edge: {@code ww 255: 8 < 9}, {@code wr 255: 8},
     * {@code rw 256: nil < 3}, {@code process 3}, {@code realtime 12 < 15} (between two agents of a
     * fleet {@code realtime 12@a < 15@b}).
     */
    public static String label(Evidence ev, AtomTable atoms) {
        if (ev instanceof Evidence.WriteWrite ww) {
            return "ww " + atoms.render(ww.key()) + ": " + atoms.render(ww.previous()) + " < "
                    + atoms.render(ww.value());
        }
        if (ev instanceof Evidence.WriteRead wr) {
            return "wr " + atoms.render(wr.key()) + ": " + atoms.render(wr.value());
        }
        if (ev instanceof Evidence.ReadWrite rw) {
            return "rw " + atoms.render(rw.key()) + ": " + (rw.initial() ? "nil" : atoms.render(rw.previous()))
                    + " < " + atoms.render(rw.value());
        }
        if (ev instanceof Evidence.Process p) {
            return "process " + p.process();
        }
        Evidence.Realtime rt = (Evidence.Realtime) ev;
        if (rt.agents() != null) {
            return "realtime " + rt.completedIndex() + "@" + rt.agents().completedOn() + " < " + rt.invokedIndex()
                    + "@" + rt.agents().invokedOn();
        }
        return "realtime " + rt.completedIndex() + " < " + rt.invokedIndex();
    }

    /** True when the transaction wrote {@code value} to the register {@code key}. */
    static boolean writes(Txn txn, long key, long value) {
        for (MicroOp mop : txn.completion().value()) {
            if (mop instanceof MicroOp.Write w && w.key() == key && w.value() == value) {
                return true;
            }
        }
        return false;
    }
}
