package io.isowatch.cycle;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.graph.EdgeKind;

import java.util.EnumMap;
import java.util.Map;

/**
 * What a cycle must look like to count as one anomaly type, as data: the edge kinds it may use,
 * the kinds it must use at least once, and how its anti-dependency (rw) edges may be arranged.
 *
 * <p>Kinds here are the kinds that explain each step, as Elle explains it: a pair of
 * transactions joined by several edges is explained by the first of ww, wr, rw, process,
 * realtime. One row per cycle anomaly; the {@code -process} and {@code -realtime} rows add that
 * kind to the allowed and required sets.
 *
 * @param type     the anomaly a matching cycle is
 * @param allowed  bit mask of edge kinds the cycle may use
 * @param required bit mask of edge kinds that must each appear at least once
 * @param rwRule   how rw edges may appear
 */
public record CycleSpec(AnomalyType type, int allowed, int required, RwRule rwRule) {

    /** The arrangement of rw edges a cycle type demands. */
    public enum RwRule {
        /** No rw edge (G0, G1c). */
        NONE,
        /** Exactly one rw edge (G-single-item). */
        EXACTLY_ONE,
        /** Two or more, no two adjacent, wrapping round (G-nonadjacent-item). */
        SEVERAL_NONADJACENT,
        /** Two or more, at least two adjacent (G2-item). */
        SEVERAL_ADJACENT
    }

    private static final int WW = EdgeKind.WW.bit();
    private static final int WR = EdgeKind.WR.bit();
    private static final int RW = EdgeKind.RW.bit();

    private static final Map<AnomalyType, CycleSpec> SPECS = buildSpecs();

    /** The spec of a cycle anomaly type. */
    public static CycleSpec of(AnomalyType type) {
        CycleSpec spec = SPECS.get(type);
        if (spec == null) {
            throw new IllegalArgumentException(type + " is not a cycle anomaly");
        }
        return spec;
    }

    /** The variant kind (process or realtime) this spec needs, or null for a plain one. */
    public EdgeKind variant() {
        if ((required & EdgeKind.REALTIME.bit()) != 0) {
            return EdgeKind.REALTIME;
        }
        if ((required & EdgeKind.PROCESS.bit()) != 0) {
            return EdgeKind.PROCESS;
        }
        return null;
    }

    /**
     * Classifies a cycle from the kinds of its steps, in order, exactly as Elle's cycle explainer
     * does: one rw is G-single; several rw never adjacent (wrapping round) is G-nonadjacent;
     * several with an adjacent pair is G2-item; otherwise any wr is G1c, else G0; then
     * {@code -realtime} if any step is realtime, else {@code -process} if any is process.
     */
    public static AnomalyType classify(EdgeKind[] steps) {
        int rw = 0;
        int wr = 0;
        boolean process = false;
        boolean realtime = false;
        boolean adjacent = false;
        for (int i = 0; i < steps.length; i++) {
            EdgeKind k = steps[i];
            EdgeKind previous = steps[(i + steps.length - 1) % steps.length];
            switch (k) {
                case RW -> {
                    rw++;
                    adjacent |= previous == EdgeKind.RW;
                }
                case WR -> wr++;
                case PROCESS -> process = true;
                case REALTIME -> realtime = true;
                default -> { }
            }
        }
        String base;
        if (rw == 1) {
            base = "G-single-item";
        } else if (rw > 1) {
            base = adjacent ? "G2-item" : "G-nonadjacent-item";
        } else if (wr > 0) {
            base = "G1c";
        } else {
            base = "G0";
        }
        String suffix = realtime ? "-realtime" : process ? "-process" : "";
        return AnomalyType.byElleName(base + suffix);
    }

    private static Map<AnomalyType, CycleSpec> buildSpecs() {
        Map<AnomalyType, CycleSpec> m = new EnumMap<>(AnomalyType.class);
        addFamily(m, "G0", WW, 0, RwRule.NONE);
        addFamily(m, "G1c", WW | WR, WR, RwRule.NONE);
        addFamily(m, "G-single-item", WW | WR | RW, 0, RwRule.EXACTLY_ONE);
        addFamily(m, "G-nonadjacent-item", WW | WR | RW, 0, RwRule.SEVERAL_NONADJACENT);
        addFamily(m, "G2-item", WW | WR | RW, 0, RwRule.SEVERAL_ADJACENT);
        return m;
    }

    private static void addFamily(Map<AnomalyType, CycleSpec> m, String base, int allowed, int required,
                                  RwRule rule) {
        put(m, base, allowed, required, rule);
        int p = EdgeKind.PROCESS.bit();
        int r = EdgeKind.REALTIME.bit();
        put(m, base + "-process", allowed | p, required | p, rule);
        put(m, base + "-realtime", allowed | r, required | r, rule);
    }

    private static void put(Map<AnomalyType, CycleSpec> m, String name, int allowed, int required, RwRule rule) {
        AnomalyType t = AnomalyType.byElleName(name);
        m.put(t, new CycleSpec(t, allowed, required, rule));
    }
}
