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
     * The checker tests a read for G1b only against writers invoked before the read
     * completed; Elle's {@code g1b-cases} looks at the whole history. Imitated exactly.
     */
    G1B_ONLY_EARLIER_WRITERS,
    /**
     * The checker's cycle searches step along the kind that explains each pair; Elle's
     * ({@code elle.bfs}) step along any kind of the pair's edges that the spec allows, so a
     * G1c-realtime search can walk an rw + realtime pair as realtime and file what it finds
     * under the explained type (and make the types G1c-realtime implies redundant). Imitated
     * exactly.
     */
    SEARCH_BY_EXPLAINING_KIND,
    /**
     * On a key with incompatible reads the checker keeps the order of the reads up to the
     * first contradiction (Elle: the longest read), takes ww and rw edges from it, and checks
     * G1a, garbage reads and duplicates only for elements inside it; a longer read that agrees
     * with it can crash the explanation of a cycle. Not imitated: with an incompatible key,
     * everything that depends on the order is uncertain.
     */
    INCOMPATIBLE_KEY_PARTIAL_ORDER;

    /** Types whose presence depends on the version order of an incompatible key. */
    static final Set<String> ORDER_DEPENDENT = Set.of("G1a", "garbage-read", "duplicate-elements", "lost-update",
            "dirty-update", "empty-transaction-graph");
}
