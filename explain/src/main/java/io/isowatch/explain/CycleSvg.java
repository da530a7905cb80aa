package io.isowatch.explain;

import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A cycle as a standalone SVG document, drawn without Graphviz.
 *
 * <p>Transactions sit clockwise on a circle from the top, T1 first, each a {@code <circle>} in its
 * op type's colour with a caption (index, process, type, micro-ops) outside the ring and the full
 * op as its tooltip. Each step is one {@code <path>}: a curve bowed outwards, so the two edges of a
 * 2-cycle do not overlap, with an arrowhead marker, Elle's colour for its kind (rw dashed) and a
 * label such as {@code rw 256: 2 < 3}. A title and a legend frame the drawing. The ring grows
 * with the number of transactions so neighbours stay about 190 px apart; the document's
 * {@code viewBox} is fitted to what was drawn. The output is well-formed XML: all text is
 * escaped, and characters XML cannot hold become U+FFFD.
 *
 * <p>Only edges are {@code <path>} elements and only transactions are {@code <circle>} elements,
 * which keeps the document easy to inspect mechanically. Cost is linear in the cycle's size.
 */
public final class CycleSvg {

    private static final double NODE_R = 20;
    private static final double LINE_H = 14;
    private static final double CHAR_W = 6.7;
    private static final double MARGIN = 16;

    private CycleSvg() {
    }

    public static String render(Finding.Cycle cycle, AtomTable atoms) {
        Notation n = Notation.of(cycle);
        Binding b = Binding.of(cycle);
        int count = b.size();
        double ring = count <= 2 ? 120 : Math.max(130, 95 / Math.sin(Math.PI / count));
        Map<Integer, double[]> at = new HashMap<>();
        Bounds box = new Bounds();
        StringBuilder nodes = new StringBuilder();
        for (int i = 0; i < count; i++) {
            Txn t = b.txns().get(i);
            double theta = -Math.PI / 2 + 2 * Math.PI * i / count;
            double ux = Math.cos(theta);
            double uy = Math.sin(theta);
            double x = ring * ux;
            double y = ring * uy;
            at.put(t.id(), new double[] {x, y});
            node(nodes, box, b.name(t), t.completion(), atoms, n, x, y, ux, uy);
        }
        StringBuilder edges = new StringBuilder();
        for (Finding.Step s : cycle.steps()) {
            edge(edges, box, s, at.get(s.from().id()), at.get(s.to().id()), count, atoms);
        }
        StringBuilder frame = new StringBuilder();
        double top = box.minY - 46;
        String title = cycle.type().elleName() + ": a cycle of " + count + " transactions";
        frame.append(text(box.minX, top + 16, "start", "font-size=\"16\" font-weight=\"bold\"", "#222222", title));
        frame.append(text(box.minX, top + 34, "start", "font-size=\"12\"", "#555555", b.indices()));
        box.add(box.minX, top, Math.max(title.length() * 8.5, b.indices().length() * CHAR_W), 36);
        legend(frame, box);
        return document(box, cycle.type().elleName(), frame, edges, nodes);
    }

    private static void node(StringBuilder out, Bounds box, String name, Op op, AtomTable atoms, Notation n,
                             double x, double y, double ux, double uy) {
        String color = Palette.node(op.type());
        out.append("  <g class=\"txn\" id=\"").append(name).append("\">\n")
                .append("    <title>")
                .append(escape(name + " = " + OpText.render(op, atoms, n, OpText.EXPLAINED))).append("</title>\n")
                .append("    <circle cx=\"").append(num(x)).append("\" cy=\"").append(num(y)).append("\" r=\"")
                .append(num(NODE_R)).append("\" fill=\"#FFFFFF\" stroke=\"").append(color)
                .append("\" stroke-width=\"2.5\"/>\n")
                .append("  ").append(text(x, y + 5, "middle", "font-size=\"13\" font-weight=\"bold\"", color, name));
        box.add(x - NODE_R, y - NODE_R, 2 * NODE_R, 2 * NODE_R);

        List<String> lines = CycleDot.nodeLines("", op, atoms, n);
        int longest = lines.stream().mapToInt(String::length).max().orElse(0);
        double w = longest * CHAR_W;
        double h = lines.size() * LINE_H;
        double px = x + ux * (NODE_R + 10);
        double py = y + uy * (NODE_R + 10);
        String anchor = ux > 0.3 ? "start" : ux < -0.3 ? "end" : "middle";
        double left = anchor.equals("start") ? px : anchor.equals("end") ? px - w : px - w / 2;
        double firstTop = uy < -0.3 ? py - h : uy > 0.3 ? py : py - h / 2;
        out.append("    <text class=\"caption\" font-family=\"monospace\" font-size=\"11\" fill=\"").append(color)
                .append("\" text-anchor=\"").append(anchor).append("\">");
        for (int i = 0; i < lines.size(); i++) {
            out.append("<tspan x=\"").append(num(px)).append("\" y=\"").append(num(firstTop + (i + 1) * LINE_H - 3))
                    .append("\">").append(escape(lines.get(i))).append("</tspan>");
        }
        out.append("</text>\n  </g>\n");
        box.add(left, firstTop, w, h);
    }

    private static void edge(StringBuilder out, Bounds box, Finding.Step s, double[] p, double[] q, int count,
                             AtomTable atoms) {
        EdgeKind kind = s.evidence().kind();
        String color = Palette.edge(kind);
        String path;
        double lx;
        double ly;
        double nx;
        double ny;
        if (p == q) {
            // A step from a transaction to itself never closes a real cycle; draw a loop anyway.
            double r = Math.hypot(p[0], p[1]);
            nx = r == 0 ? 0 : p[0] / r;
            ny = r == 0 ? -1 : p[1] / r;
            double sx = p[0] + NODE_R * (nx - ny * 0.6);
            double sy = p[1] + NODE_R * (ny + nx * 0.6);
            double ex = p[0] + (NODE_R + 2) * (nx + ny * 0.6);
            double ey = p[1] + (NODE_R + 2) * (ny - nx * 0.6);
            path = "M " + num(sx) + " " + num(sy) + " C " + num(sx + 60 * nx - 30 * ny) + " "
                    + num(sy + 60 * ny + 30 * nx) + " " + num(ex + 60 * nx + 30 * ny) + " "
                    + num(ey + 60 * ny - 30 * nx) + " " + num(ex) + " " + num(ey);
            lx = p[0] + nx * (NODE_R + 60);
            ly = p[1] + ny * (NODE_R + 60);
        } else {
            double dx = q[0] - p[0];
            double dy = q[1] - p[1];
            double len = Math.hypot(dx, dy);
            // Right of the direction of travel: outwards for clockwise neighbours, and opposite
            // sides for the two edges of a 2-cycle.
            nx = dy / len;
            ny = -dx / len;
            double bend = len * (count <= 2 ? 0.35 : 0.18);
            double cx = (p[0] + q[0]) / 2 + nx * bend;
            double cy = (p[1] + q[1]) / 2 + ny * bend;
            double[] start = toward(p, cx, cy, NODE_R);
            double[] end = toward(q, cx, cy, NODE_R + 2);
            path = "M " + num(start[0]) + " " + num(start[1]) + " Q " + num(cx) + " " + num(cy) + " "
                    + num(end[0]) + " " + num(end[1]);
            lx = 0.25 * start[0] + 0.5 * cx + 0.25 * end[0] + nx * 8;
            ly = 0.25 * start[1] + 0.5 * cy + 0.25 * end[1] + ny * 8;
            box.add(start[0], start[1], 0, 0);
            box.add(cx, cy, 0, 0);
            box.add(end[0], end[1], 0, 0);
        }
        out.append("  <path class=\"edge edge-").append(kind.elleName()).append("\" d=\"").append(path)
                .append("\" fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"2\"")
                .append(Palette.dashed(kind) ? " stroke-dasharray=\"7 4\"" : "")
                .append(" marker-end=\"url(#arrow-").append(kind.elleName()).append(")\"/>\n");
        String label = CycleDot.clip(StepText.label(s.evidence(), atoms));
        String anchor = nx > 0.3 ? "start" : nx < -0.3 ? "end" : "middle";
        double base = ny < -0.3 ? ly - 2 : ny > 0.3 ? ly + 11 : ly + 4;
        double w = label.length() * CHAR_W;
        double left = anchor.equals("start") ? lx : anchor.equals("end") ? lx - w : lx - w / 2;
        out.append("  ").append(text(lx, base, anchor,
                "class=\"edge-label\" font-size=\"11\" stroke=\"#FFFFFF\" stroke-width=\"3\" paint-order=\"stroke\"",
                color, label));
        box.add(left, base - 11, w, 14);
    }

    /** What a label such as {@code rw 3: 28 < 30} says, under the legend of edge kinds. */
    static final List<String> LABEL_LEGEND = List.of(
            "a label \"rw 3: 28 < 30\": kind, key 3, versions: A read key 3 up to 28,",
            "and B wrote 30, which comes after 28 (ww: A wrote 28, B then 30; wr 3: 28: B read A's 28;",
            "realtime 12 < 15: A completed at index 12, before B's invocation at 15)");

    private static void legend(StringBuilder out, Bounds box) {
        double x = box.minX;
        double y = box.maxY + 24;
        out.append("  <g class=\"legend\" font-size=\"11\">\n    ")
                .append(text(x, y, "start", "", "#555555", "an edge A -> B means:"));
        box.add(x, y - 11, 22 * CHAR_W, 14);
        y += 16;
        for (EdgeKind k : EdgeKind.values()) {
            String color = Palette.edge(k);
            out.append("    <line x1=\"").append(num(x)).append("\" y1=\"").append(num(y - 4)).append("\" x2=\"")
                    .append(num(x + 28)).append("\" y2=\"").append(num(y - 4)).append("\" stroke=\"").append(color)
                    .append("\" stroke-width=\"2\"").append(Palette.dashed(k) ? " stroke-dasharray=\"7 4\"" : "")
                    .append("/>\n    ").append(text(x + 36, y, "start", "font-weight=\"bold\"", color, k.elleName()))
                    .append("    ").append(text(x + 100, y, "start", "", color, Palette.meaning(k)));
            box.add(x, y - 11, 100 + Palette.meaning(k).length() * CHAR_W, 14);
            y += 16;
        }
        double tx = x;
        for (OpType type : List.of(OpType.OK, OpType.INFO, OpType.FAIL)) {
            String color = Palette.node(type);
            String caption = type.jepsenName() + ": " + outcome(type);
            out.append("    <rect x=\"").append(num(tx)).append("\" y=\"").append(num(y - 10)).append("\" width=\"10\" height=\"10\" rx=\"5\" fill=\"#FFFFFF\" stroke=\"")
                    .append(color).append("\" stroke-width=\"2\"/>\n    ")
                    .append(text(tx + 16, y, "start", "", color, caption));
            tx += 16 + caption.length() * CHAR_W + 18;
        }
        box.add(x, y - 11, tx - x, 14);
        // How to read an edge's label: the kind, the key, and the versions it orders.
        for (String line : LABEL_LEGEND) {
            y += 16;
            out.append("    ").append(text(x, y, "start", "class=\"label-legend\"", "#555555", line));
            box.add(x, y - 11, line.length() * CHAR_W, 14);
        }
        out.append("  </g>\n");
    }

    private static String outcome(OpType type) {
        return type == OpType.OK ? "committed" : type == OpType.FAIL ? "aborted" : "outcome unknown";
    }

    private static String document(Bounds box, String type, StringBuilder frame, StringBuilder edges,
                                   StringBuilder nodes) {
        double x = box.minX - MARGIN;
        double y = box.minY - MARGIN;
        double w = box.maxX - box.minX + 2 * MARGIN;
        double h = box.maxY - box.minY + 2 * MARGIN;
        StringBuilder sb = new StringBuilder(frame.length() + edges.length() + nodes.length() + 1024);
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"").append(num(w))
                .append("\" height=\"").append(num(h)).append("\" viewBox=\"").append(num(x)).append(' ')
                .append(num(y)).append(' ').append(num(w)).append(' ').append(num(h))
                .append("\" font-family=\"Helvetica, Arial, sans-serif\">\n")
                .append("  <title>").append(escape(type)).append("</title>\n  <defs>\n");
        for (EdgeKind k : EdgeKind.values()) {
            sb.append("    <marker id=\"arrow-").append(k.elleName())
                    .append("\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\"")
                    .append(" orient=\"auto\"><polygon points=\"0,0 10,5 0,10\" fill=\"")
                    .append(Palette.edge(k)).append("\"/></marker>\n");
        }
        sb.append("  </defs>\n")
                .append("  <rect x=\"").append(num(x)).append("\" y=\"").append(num(y)).append("\" width=\"")
                .append(num(w)).append("\" height=\"").append(num(h)).append("\" fill=\"#FFFFFF\"/>\n")
                .append(frame).append(edges).append(nodes).append("</svg>\n");
        return sb.toString();
    }

    /** The point at distance {@code d} from {@code p} towards (x, y). */
    private static double[] toward(double[] p, double x, double y, double d) {
        double dx = x - p[0];
        double dy = y - p[1];
        double len = Math.hypot(dx, dy);
        return len == 0 ? p : new double[] {p[0] + dx / len * d, p[1] + dy / len * d};
    }

    private static String text(double x, double y, String anchor, String attrs, String color, String s) {
        return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\""
                + (attrs.isEmpty() ? "" : " " + attrs) + " fill=\"" + color + "\">" + escape(s) + "</text>\n";
    }

    static String num(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** Escapes XML text and attribute values; characters XML 1.0 cannot hold become U+FFFD. */
    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&':
                    sb.append("&amp;");
                    break;
                case '<':
                    sb.append("&lt;");
                    break;
                case '>':
                    sb.append("&gt;");
                    break;
                case '"':
                    sb.append("&quot;");
                    break;
                case '\'':
                    sb.append("&apos;");
                    break;
                default:
                    if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        sb.append(c).append(s.charAt(++i));
                    } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r'
                            || Character.isSurrogate(c) || c == 0xFFFE || c == 0xFFFF) {
                        sb.append('\uFFFD');
                    } else {
                        sb.append(c);
                    }
            }
        }
        return sb.toString();
    }

    /** The smallest rectangle around everything drawn so far. */
    private static final class Bounds {
        double minX = Double.POSITIVE_INFINITY;
        double minY = Double.POSITIVE_INFINITY;
        double maxX = Double.NEGATIVE_INFINITY;
        double maxY = Double.NEGATIVE_INFINITY;

        void add(double x, double y, double w, double h) {
            minX = Math.min(minX, x);
            minY = Math.min(minY, y);
            maxX = Math.max(maxX, x + w);
            maxY = Math.max(maxY, y + h);
        }
    }
}
