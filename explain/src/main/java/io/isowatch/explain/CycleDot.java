package io.isowatch.explain;

import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;

import java.util.ArrayList;
import java.util.List;

/**
 * A cycle as a Graphviz DOT digraph, for {@code dot -Tsvg}.
 *
 * <p>Nodes are named T1..Tn as in the text and labelled with the op's index, process, type and
 * micro-ops (Elle's short form, {@code a 1 2}, {@code r 1 [2]}); their colour is the op type's.
 * Edges carry the kind and the key and values that prove them (see {@link StepText#label}),
 * in Elle's colour for the kind, anti-dependencies dashed. Long transactions show their first
 * {@value #MAX_MOPS} micro-ops; the full op is the node's tooltip.
 */
public final class CycleDot {

    static final int MAX_MOPS = 8;
    static final int MAX_LINE = 48;

    private CycleDot() {
    }

    public static String render(Finding.Cycle cycle, AtomTable atoms) {
        Notation n = Notation.of(cycle);
        Binding b = Binding.of(cycle);
        StringBuilder sb = new StringBuilder(256 * b.size());
        sb.append("digraph cycle {\n")
                .append("  label=").append(quote(cycle.type().elleName() + ": a cycle of " + b.size()
                        + " transactions")).append(";\n")
                .append("  labelloc=t;\n  fontname=\"Helvetica\";\n")
                .append("  node [shape=box, style=rounded, fontname=\"Courier\", fontsize=10];\n")
                .append("  edge [fontname=\"Helvetica\", fontsize=10];\n");
        for (Txn t : b.txns()) {
            Op op = t.completion();
            String color = quote(Palette.node(op.type()));
            sb.append("  ").append(b.name(t)).append(" [label=").append(nodeLabel(b.name(t), op, atoms, n))
                    .append(", color=").append(color).append(", fontcolor=").append(color)
                    .append(", tooltip=").append(quote(OpText.render(op, atoms, n, OpText.EXPLAINED))).append("];\n");
        }
        for (Finding.Step s : cycle.steps()) {
            EdgeKind k = s.evidence().kind();
            String color = quote(Palette.edge(k));
            sb.append("  ").append(b.name(s.from())).append(" -> ").append(b.name(s.to()))
                    .append(" [label=").append(quote(StepText.label(s.evidence(), atoms)))
                    .append(", color=").append(color).append(", fontcolor=").append(color);
            if (Palette.dashed(k)) {
                sb.append(", style=dashed");
            }
            sb.append("];\n");
        }
        return sb.append("}\n").toString();
    }

    /** The node's lines, left-justified with DOT's {@code \l}. */
    private static String nodeLabel(String name, Op op, AtomTable atoms, Notation n) {
        StringBuilder sb = new StringBuilder("\"");
        for (String line : nodeLines(name, op, atoms, n)) {
            sb.append(escape(line)).append("\\l");
        }
        return sb.append('"').toString();
    }

    /** Heading then micro-ops, capped in number and width; shared with {@link CycleSvg}. */
    static List<String> nodeLines(String name, Op op, AtomTable atoms, Notation n) {
        List<MicroOp> mops = op.value();
        List<String> lines = new ArrayList<>();
        lines.add((name.isEmpty() ? "" : name + "  ") + "index " + op.index() + ", process " + op.process()
                + ", :" + op.type().jepsenName());
        int shown = Math.min(MAX_MOPS, mops.size());
        for (int i = 0; i < shown; i++) {
            lines.add(clip(OpText.shortMop(mops.get(i), atoms, n)));
        }
        if (shown < mops.size()) {
            lines.add("... " + (mops.size() - shown) + " more");
        }
        return lines;
    }

    static String clip(String s) {
        return s.length() <= MAX_LINE ? s : s.substring(0, MAX_LINE - 3) + "...";
    }

    static String quote(String s) {
        return '"' + escape(s) + '"';
    }

    /** Escapes a DOT quoted string: backslash, quote and line breaks. */
    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\':
                    sb.append("\\\\");
                    break;
                case '"':
                    sb.append("\\\"");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    break;
                default:
                    sb.append(c);
            }
        }
        return sb.toString();
    }
}
