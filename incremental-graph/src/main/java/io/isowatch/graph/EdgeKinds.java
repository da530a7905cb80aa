package io.isowatch.graph;

import java.util.ArrayList;
import java.util.List;

/**
 * An immutable set of {@link EdgeKind}s packed into the low bits of an int.
 *
 * <p>The graph stores one such mask per edge; the static helpers work on raw masks so that hot
 * loops never allocate, and the value class exists for readable code at the edges.
 */
public record EdgeKinds(int mask) {

    public static final EdgeKinds NONE = new EdgeKinds(0);
    /** ww, wr and rw: the data dependencies. */
    public static final int DATA = EdgeKind.WW.bit() | EdgeKind.WR.bit() | EdgeKind.RW.bit();
    /** All kinds. */
    public static final int ALL = DATA | EdgeKind.PROCESS.bit() | EdgeKind.REALTIME.bit();

    public EdgeKinds {
        if ((mask & ~ALL) != 0) {
            throw new IllegalArgumentException("edge-kind mask " + Integer.toBinaryString(mask)
                    + " has bits outside " + Integer.toBinaryString(ALL));
        }
    }

    /** The set holding exactly these kinds. */
    public static EdgeKinds of(EdgeKind... kinds) {
        int m = 0;
        for (EdgeKind k : kinds) {
            m |= k.bit();
        }
        return new EdgeKinds(m);
    }

    /** True when {@code mask} holds {@code kind}. */
    public static boolean has(int mask, EdgeKind kind) {
        return (mask & kind.bit()) != 0;
    }

    public boolean contains(EdgeKind kind) {
        return has(mask, kind);
    }

    public EdgeKinds with(EdgeKind kind) {
        return new EdgeKinds(mask | kind.bit());
    }

    public boolean isEmpty() {
        return mask == 0;
    }

    /** The kinds in declaration order. */
    public List<EdgeKind> toList() {
        List<EdgeKind> out = new ArrayList<>();
        for (EdgeKind k : EdgeKind.values()) {
            if (has(mask, k)) {
                out.add(k);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return toList().toString();
    }
}
