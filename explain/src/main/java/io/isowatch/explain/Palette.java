package io.isowatch.explain;

import io.isowatch.graph.EdgeKind;
import io.isowatch.history.OpType;

/** The colours of the pictures: Elle's {@code elle.viz} colours for edges and op types. */
final class Palette {

    private Palette() {
    }

    /** Elle's {@code rel->color}. */
    static String edge(EdgeKind kind) {
        switch (kind) {
            case WW:
                return "#C02700";
            case WR:
                return "#C000A5";
            case RW:
                return "#5B00C0";
            case REALTIME:
                return "#0050C0";
            case PROCESS:
                return "#00C0C0";
            default:
                return "#585858";
        }
    }

    /** Anti-dependencies are drawn dashed: they are the edges isolation levels disagree on. */
    static boolean dashed(EdgeKind kind) {
        return kind == EdgeKind.RW;
    }

    /** Elle's {@code type->color} for nodes. */
    static String node(OpType type) {
        switch (type) {
            case OK:
                return "#0058AD";
            case INFO:
                return "#AC6E00";
            case FAIL:
                return "#A50053";
            default:
                return "#585858";
        }
    }

    /** What an edge A -> B of each kind says, for legends. */
    static String meaning(EdgeKind kind) {
        switch (kind) {
            case WW:
                return "B overwrote A's version";
            case WR:
                return "B read A's version";
            case RW:
                return "B overwrote the version A read";
            case PROCESS:
                return "one process ran A, then B";
            default:
                return "A completed before B began";
        }
    }
}
