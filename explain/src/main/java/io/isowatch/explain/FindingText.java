package io.isowatch.explain;

import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Findings as text a database engineer can act on: cycles exactly as Elle explains them, other
 * findings as a sentence or two naming the ops, keys and elements involved.
 *
 * <p>Cost is linear in the size of the ops the finding names. Throws
 * {@link IllegalArgumentException} when a finding points at a micro-op that is not a read.
 */
public final class FindingText {

    private FindingText() {
    }

    /** The full explanation; multi-line, without a trailing newline. */
    public static String render(Finding finding, AtomTable atoms) {
        return render(finding, atoms, Notation.of(finding));
    }

    /** The full explanation in the workload's notation {@code n} (register or list words). */
    public static String render(Finding finding, AtomTable atoms, Notation n) {
        if (finding instanceof Finding.Cycle c) {
            return cycle(c, atoms, n);
        }
        Binding b = Binding.of(finding.txns());
        String body;
        if (finding instanceof Finding.BadRead r) {
            body = BadReadText.render(r, b, atoms, n);
        } else if (finding instanceof Finding.Internal i) {
            body = internal(i, b, atoms, n);
        } else if (finding instanceof Finding.DuplicateElements d) {
            body = duplicates(d, b, atoms, n);
        } else if (finding instanceof Finding.IncompatibleOrder o) {
            body = "Key " + atoms.render(o.key()) + " was read as "
                    + OpText.list(o.shorter(), atoms, OpText.EXPLAINED)
                    + " and as " + OpText.list(o.longer(), atoms, OpText.EXPLAINED) + "; neither is a prefix of the other,"
                    + " so no single order of appends to key " + atoms.render(o.key())
                    + " explains both reads";
        } else if (finding instanceof Finding.DirtyUpdate d) {
            body = dirtyUpdate(d, b, atoms);
        } else if (finding instanceof Finding.LostUpdate l) {
            body = lostUpdate(l, b, atoms, n);
        } else if (finding instanceof Finding.CyclicVersions c) {
            body = cyclicVersions(c, atoms);
        } else if (finding instanceof Finding.CycleExists c) {
            body = "These " + c.scc().size() + " transactions form a cycle of " + c.subgraph()
                    + " dependencies, which " + c.model() + " forbids; no specific anomaly found rules "
                    + c.model() + " out, so the cycle is reported as such";
        } else {
            body = undecided((Finding.Undecided) finding);
        }
        // The sentence ends by introducing the ops it names, or with a full stop when it names none.
        return b.size() == 0 ? body + "." : body + ":\n" + b.lines(atoms, n);
    }

    /**
     * One line naming the anomaly, the shape of the evidence and the history indices, e.g.
     * {@code G-single-item: T1 -wr-> T2 -rw-> T1, a cycle of 2 transactions (indices 3, 7)}.
     * Keys and values are left out, so no atom table is needed.
     */
    public static String title(Finding finding) {
        return title(finding, Notation.of(finding));
    }

    /** The title in the workload's notation {@code n}. */
    public static String title(Finding finding, Notation n) {
        String type = finding.type().elleName();
        if (finding instanceof Finding.Cycle c) {
            Binding b = Binding.of(c);
            StringBuilder sb = new StringBuilder(type).append(": ").append(b.name(c.steps().get(0).from()));
            for (Finding.Step s : c.steps()) {
                sb.append(" -").append(s.evidence().kind().elleName()).append("-> ").append(b.name(s.to()));
            }
            return sb.append(", a cycle of ").append(b.size()).append(" transactions (")
                    .append(b.indices()).append(')').toString();
        }
        Binding b = Binding.of(finding.txns());
        boolean reg = n == Notation.RW_REGISTER;
        String what;
        if (finding instanceof Finding.BadRead r) {
            what = BadReadText.title(r, b, reg);
        } else if (finding instanceof Finding.Internal) {
            what = "T1 read a " + (reg ? "register" : "key") + " inconsistently with its own earlier steps";
        } else if (finding instanceof Finding.DuplicateElements d) {
            what = "T1 read " + d.counts().size() + (d.counts().size() == 1 ? " element" : " elements")
                    + " more than once";
        } else if (finding instanceof Finding.IncompatibleOrder o) {
            what = "two reads of one key (" + o.shorter().length + " and " + o.longer().length
                    + " elements) disagree on the order of its appends";
        } else if (finding instanceof Finding.DirtyUpdate) {
            what = "committed T2 wrote after aborted T1";
        } else if (finding instanceof Finding.LostUpdate l) {
            what = l.txns().size() + " transactions read the same version of one key and all wrote it";
        } else if (finding instanceof Finding.CyclicVersions c) {
            what = c.source() + " would order the versions of one key in a cycle of " + c.cycle().length;
        } else if (finding instanceof Finding.CycleExists c) {
            what = "a cycle of " + c.subgraph() + " edges among " + c.scc().size() + " transactions";
        } else {
            return type + ": " + ((Finding.Undecided) finding).reason();
        }
        String idx = b.indices();
        return type + ": " + what + (idx.isEmpty() ? "" : " (" + idx + ")");
    }

    /** The versions round a cycle, e.g. {@code 3 < 5 < nil < 3}. */
    static String versionCycle(Finding.CyclicVersions c, AtomTable atoms) {
        StringBuilder sb = new StringBuilder();
        for (long v : c.cycle()) {
            sb.append(version(v, atoms)).append(" < ");
        }
        return sb.append(version(c.cycle()[0], atoms)).toString();
    }

    private static String version(long v, AtomTable atoms) {
        return v == io.isowatch.trace.TraceListener.NIL ? "nil" : atoms.render(v);
    }

    private static String cyclicVersions(Finding.CyclicVersions c, AtomTable atoms) {
        return "Assuming " + c.source() + ", the versions of key " + atoms.render(c.key())
                + " would have to be ordered " + versionCycle(c, atoms)
                + ", which is impossible; the history contradicts that assumption, so its inferences"
                + " about key " + atoms.render(c.key()) + " are left out (as Elle leaves them out)";
    }

    /** Elle's {@code render-cycle-explanation}: the binding, then one line per step. */
    private static String cycle(Finding.Cycle c, AtomTable atoms, Notation n) {
        Binding b = Binding.of(c);
        StringBuilder sb = new StringBuilder(b.let(atoms, n)).append("\n\nThen:\n");
        List<Finding.Step> steps = c.steps();
        for (int i = 0; i < steps.size(); i++) {
            Finding.Step s = steps.get(i);
            String an = b.name(s.from());
            String bn = b.name(s.to());
            String ex = an + " < " + bn + ", because " + StepText.render(s, an, bn, atoms);
            if (i == steps.size() - 1) {
                sb.append("  - However, ").append(ex).append(": a contradiction!");
            } else {
                sb.append("  - ").append(ex).append(".\n");
            }
        }
        return sb.toString();
    }

    private static String internal(Finding.Internal f, Binding b, AtomTable atoms, Notation n) {
        MicroOp.Read r = read(f.txn().completion(), f.mopIndex());
        String expected;
        if (n == Notation.RW_REGISTER && !f.unknownPrefix() && f.expected().length <= 1) {
            expected = OpText.readValue(f.expected(), atoms, n, OpText.EXPLAINED);
        } else if (f.unknownPrefix()) {
            String tail = OpText.list(f.expected(), atoms, OpText.EXPLAINED);
            expected = f.expected().length == 0 ? "[...]" : "[... " + tail.substring(1);
        } else {
            expected = OpText.list(f.expected(), atoms, OpText.EXPLAINED);
        }
        return b.name(f.txn()) + (n == Notation.RW_REGISTER ? " read register " : " read key ") + atoms.render(r.key())
                + " = " + OpText.readValue(r.values(), atoms, n, OpText.EXPLAINED)
                + ", but its own earlier steps imply it should have seen " + expected;
    }

    private static String duplicates(Finding.DuplicateElements d, Binding b, AtomTable atoms, Notation n) {
        MicroOp.Read r = read(d.txn().completion(), d.mopIndex());
        Map<Long, Integer> sorted = new TreeMap<>(d.counts());
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Long, Integer> e : sorted.entrySet()) {
            parts.add(atoms.render(e.getKey()) + " (" + e.getValue() + " times)");
        }
        String which = parts.size() == 1 ? "element " + parts.get(0) + " appears"
                : "elements " + join(parts) + " appear";
        return b.name(d.txn()) + " read key " + atoms.render(r.key()) + " = "
                + OpText.readValue(r.values(), atoms, n, OpText.EXPLAINED) + ", in which " + which
                + " more than once; each element is appended only once, so a read may contain it"
                + " at most once";
    }

    private static String dirtyUpdate(Finding.DirtyUpdate d, Binding b, AtomTable atoms) {
        long[] v = d.values();
        String aborted = v.length == 0 ? "an element" : atoms.render(v[0]);
        String committed = v.length == 0 ? "an element" : atoms.render(v[v.length - 1]);
        return "Key " + atoms.render(d.key()) + " went through versions "
                + OpText.list(v, atoms, OpText.EXPLAINED) + ": "
                + b.name(d.aborted()) + " appended " + aborted + " and " + outcome(d.aborted().completion().type())
                + ", yet " + b.name(d.committed()) + ", which " + outcome(d.committed().completion().type())
                + ", appended " + committed + " after it. A committed transaction must not build on the"
                + " write of an aborted one";
    }

    private static String lostUpdate(Finding.LostUpdate l, Binding b, AtomTable atoms, Notation n) {
        List<String> names = new ArrayList<>();
        for (Txn t : l.txns()) {
            names.add(b.name(t));
        }
        String k = atoms.render(l.key());
        String verb = n == Notation.RW_REGISTER ? "wrote key " + k : "appended to key " + k;
        boolean two = names.size() == 2;
        return join(names) + (two ? " both" : " all") + " read key " + k + " = "
                + OpText.readValue(l.value(), atoms, n, OpText.EXPLAINED) + ", then " + verb
                + ", and committed: at most one of them can directly follow that version, so "
                + (two ? "the other's update was" : "the others' updates were") + " lost";
    }

    private static String undecided(Finding.Undecided u) {
        switch (u.type()) {
            case CYCLE_SEARCH_TIMEOUT:
                return "The cycle search ran out of budget (" + u.reason() + "), so the verdict is"
                        + " unknown rather than valid. Raise the cycle search budget, or check a"
                        + " shorter history";
            case EMPTY_TRANSACTION_GRAPH:
                if (u.reason().contains(" left out: ")) {
                    // The reader's cause comes first: it usually explains the empty graph by itself.
                    return "No dependency between transactions could be inferred: " + u.reason() + ". So the"
                            + " verdict is unknown. Check the ops left out first (a client op needs an integer"
                            + " :process, as in Elle), then that transactions read the keys others write";
                }
                return "No dependency between transactions could be inferred (" + u.reason() + "), so"
                        + " the verdict is unknown. This almost always means a broken history: check"
                        + " that transactions read the keys other transactions write";
            default:
                return "The checker could not decide " + u.type().elleName() + ": " + u.reason();
        }
    }

    /** The read at {@code mopIndex} of {@code op}; throws when there is none. */
    static MicroOp.Read read(Op op, int mopIndex) {
        if (mopIndex < 0 || mopIndex >= op.value().size()
                || !(op.value().get(mopIndex) instanceof MicroOp.Read r)) {
            throw new IllegalArgumentException(Messages.notARead(op, mopIndex));
        }
        return r;
    }

    /** How a transaction ended, as a clause: {@code aborted (:fail)}, {@code committed (:ok)}. */
    static String outcome(OpType type) {
        switch (type) {
            case FAIL:
                return "aborted (:fail)";
            case INFO:
                return "may or may not have committed (:info)";
            case OK:
                return "committed (:ok)";
            default:
                return "was only invoked (:invoke)";
        }
    }

    /** {@code a}, {@code a and b}, {@code a, b and c}. */
    static String join(List<String> parts) {
        if (parts.size() <= 1) {
            return parts.isEmpty() ? "" : parts.get(0);
        }
        return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
    }
}
