package io.isowatch.checker;

import io.isowatch.collect.LongIntMap;

/**
 * The renumbering of transaction ids that eviction ({@link IncrementalChecker#evictBelow}) applies
 * to the checker's small maps: ids below the cut are forgotten, the others lose the cut.
 */
final class Renumbering {

    private Renumbering() {
    }

    /**
     * A copy of {@code map} whose values are transaction ids renumbered for a cut: entries naming
     * a forgotten transaction are left out, the others lose {@code cut}. Negative values are
     * markers, not ids, and are kept as they are.
     */
    static LongIntMap values(LongIntMap map, int cut) {
        LongIntMap out = new LongIntMap();
        map.forEach((key, value) -> {
            if (value < 0) {
                out.put(key, value);
            } else if (value >= cut) {
                out.put(key, value - cut);
            }
        });
        return out;
    }
}
