package io.isowatch.anomaly;

import java.util.HashMap;
import java.util.Map;

/**
 * Every anomaly isowatch can report, under the name Elle gives it.
 *
 * <p>Cycle anomalies come in three variants: plain (data edges only), {@code -process} (at least
 * one process edge, no realtime edge) and {@code -realtime} (at least one realtime edge).
 * {@link #GARBAGE_READ} is isowatch's own: Elle ignores (or fails on) a read of an element that
 * no transaction appended.
 */
public enum AnomalyType {
    G0("G0", true),
    G0_PROCESS("G0-process", true),
    G0_REALTIME("G0-realtime", true),
    G1C("G1c", true),
    G1C_PROCESS("G1c-process", true),
    G1C_REALTIME("G1c-realtime", true),
    G_SINGLE_ITEM("G-single-item", true),
    G_SINGLE_ITEM_PROCESS("G-single-item-process", true),
    G_SINGLE_ITEM_REALTIME("G-single-item-realtime", true),
    G_NONADJACENT_ITEM("G-nonadjacent-item", true),
    G_NONADJACENT_ITEM_PROCESS("G-nonadjacent-item-process", true),
    G_NONADJACENT_ITEM_REALTIME("G-nonadjacent-item-realtime", true),
    G2_ITEM("G2-item", true),
    G2_ITEM_PROCESS("G2-item-process", true),
    G2_ITEM_REALTIME("G2-item-realtime", true),

    G1A("G1a", false),
    G1B("G1b", false),
    INTERNAL("internal", false),
    FUTURE_READ("future-read", false),
    DIRTY_UPDATE("dirty-update", false),
    DUPLICATE_ELEMENTS("duplicate-elements", false),
    INCOMPATIBLE_ORDER("incompatible-order", false),
    LOST_UPDATE("lost-update", false),
    CYCLIC_VERSIONS("cyclic-versions", false),
    GARBAGE_READ("garbage-read", false),

    // Elle's fallbacks: a cycle exists in the subgraph a model forbids, but no cycle search
    // classified it as an anomaly that already rules the model out.
    PL_1_CYCLE_EXISTS("PL-1-cycle-exists", false),
    PL_2_CYCLE_EXISTS("PL-2-cycle-exists", false),
    PL_SI_CYCLE_EXISTS("PL-SI-cycle-exists", false),
    PL_3_CYCLE_EXISTS("PL-3-cycle-exists", false),
    STRONG_SESSION_PL_1_CYCLE_EXISTS("strong-session-PL-1-cycle-exists", false),
    STRONG_SESSION_PL_2_CYCLE_EXISTS("strong-session-PL-2-cycle-exists", false),
    STRONG_SESSION_SNAPSHOT_ISOLATION_CYCLE_EXISTS("strong-session-snapshot-isolation-cycle-exists", false),
    STRONG_SESSION_SERIALIZABLE_CYCLE_EXISTS("strong-session-serializable-cycle-exists", false),
    STRONG_PL_1_CYCLE_EXISTS("strong-PL-1-cycle-exists", false),
    STRONG_PL_2_CYCLE_EXISTS("strong-PL-2-cycle-exists", false),
    STRONG_SNAPSHOT_ISOLATION_CYCLE_EXISTS("strong-snapshot-isolation-cycle-exists", false),
    PL_SS_CYCLE_EXISTS("PL-SS-cycle-exists", false),

    /** The cycle search ran out of budget: the verdict becomes unknown, never valid. */
    CYCLE_SEARCH_TIMEOUT("cycle-search-timeout", false),
    /** No dependency was inferred at all; almost always a broken history. Makes the verdict unknown. */
    EMPTY_TRANSACTION_GRAPH("empty-transaction-graph", false);

    private static final Map<String, AnomalyType> BY_NAME = new HashMap<>();

    static {
        for (AnomalyType t : values()) {
            BY_NAME.put(t.elleName, t);
        }
    }

    private final String elleName;
    private final boolean cycle;

    AnomalyType(String elleName, boolean cycle) {
        this.elleName = elleName;
        this.cycle = cycle;
    }

    /** The name Elle and the output use, e.g. {@code G-single-item-realtime}. */
    public String elleName() {
        return elleName;
    }

    /** True for anomalies that are cycles in the dependency graph. */
    public boolean isCycle() {
        return cycle;
    }

    /** True for Elle's {@code <model>-cycle-exists} fallbacks. */
    public boolean isCycleExists() {
        return elleName.endsWith("-cycle-exists");
    }

    /** True for anomalies that make a verdict unknown rather than invalid. */
    public boolean makesUnknown() {
        return this == CYCLE_SEARCH_TIMEOUT || this == EMPTY_TRANSACTION_GRAPH;
    }

    /** Looks an anomaly up by its Elle name; null when there is none. */
    public static AnomalyType byElleName(String name) {
        return BY_NAME.get(name);
    }

    @Override
    public String toString() {
        return elleName;
    }
}
