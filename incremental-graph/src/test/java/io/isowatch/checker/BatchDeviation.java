package io.isowatch.checker;

import java.util.Set;

/**
 * Known ways in which {@link IncrementalChecker} departs from Elle, each a bug with a failing
 * example in {@code CheckerElleDiscrepancyTest}. The reference can imitate them, so that a
 * property can tell a known departure from a new one; by default it imitates none. Remove a
 * constant once its bug is fixed.
 */
enum BatchDeviation {
    /**
     * On a key with incompatible reads the checker infers edges from the order of the reads up
     * to the first contradiction while events arrive, and adds those of Elle's order (the
     * longest read) when the key settles; the earlier edges stay, so it can find cycles Elle's
     * graph lacks. Not imitated: with an incompatible key, everything that depends on the order
     * is uncertain.
     */
    INCOMPATIBLE_KEY_PARTIAL_ORDER;

    /** Types whose presence depends on the version order of an incompatible key. */
    static final Set<String> ORDER_DEPENDENT = Set.of("G1a", "garbage-read", "duplicate-elements", "lost-update",
            "dirty-update", "empty-transaction-graph");
}
