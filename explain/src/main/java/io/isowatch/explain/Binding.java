package io.isowatch.explain;

import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.AtomTable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The short names T1..Tn a finding gives its transactions, like Elle's binding.
 *
 * <p>A cycle names the sources of its steps in order; a target that is no step's source (which a
 * well-formed cycle never has) gets the next free name, so rendering never fails on it.
 * Transactions are matched by their checker id.
 */
final class Binding {

    private final List<Txn> txns = new ArrayList<>();
    private final Map<Integer, String> names = new HashMap<>();

    private Binding() {
    }

    static Binding of(List<Txn> txns) {
        Binding b = new Binding();
        for (Txn t : txns) {
            b.add(t);
        }
        return b;
    }

    static Binding of(Finding.Cycle cycle) {
        Binding b = of(cycle.txns());
        for (Finding.Step s : cycle.steps()) {
            b.add(s.to());
        }
        return b;
    }

    private void add(Txn t) {
        if (!names.containsKey(t.id())) {
            txns.add(t);
            names.put(t.id(), "T" + txns.size());
        }
    }

    String name(Txn t) {
        String n = names.get(t.id());
        if (n == null) {
            throw new IllegalArgumentException(Messages.unboundTxn(t));
        }
        return n;
    }

    List<Txn> txns() {
        return txns;
    }

    int size() {
        return txns.size();
    }

    /** Elle's {@code explain-binding}: {@code Let:} and one {@code   T1 = {op}} line per txn. */
    String let(AtomTable atoms, Notation notation) {
        return "Let:\n" + lines(atoms, notation);
    }

    /** One {@code   T1 = {op}} line per transaction, joined by newlines (no trailing newline). */
    String lines(AtomTable atoms, Notation notation) {
        StringBuilder sb = new StringBuilder();
        for (Txn t : txns) {
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append("  ").append(names.get(t.id())).append(" = ")
                    .append(OpText.render(t.completion(), atoms, notation, OpText.EXPLAINED));
        }
        return sb.toString();
    }

    /** The completion indices, e.g. {@code index 3} or {@code indices 3, 7}; empty when none. */
    String indices() {
        if (txns.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(txns.size() == 1 ? "index " : "indices ");
        for (int i = 0; i < txns.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(txns.get(i).index());
        }
        return sb.toString();
    }
}
