package io.isowatch.anomaly;

import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The consistency models a history rules out, split as Elle's {@code friendly-boundary} splits
 * them, by the friendly names Elle prints (e.g. {@code read-committed}, {@code serializable}).
 *
 * <p>A model in {@code not} implies no other ruled-out model, so {@code not} is the most precise
 * claim; every model in {@code alsoNot} is stronger than one in {@code not}. Both are empty when
 * nothing is ruled out. The sets are immutable copies in natural order.
 *
 * @param not     the weakest models ruled out
 * @param alsoNot the remaining, stronger models ruled out
 */
public record Boundary(SortedSet<String> not, SortedSet<String> alsoNot) {

    public Boundary {
        not = naturalCopy(Objects.requireNonNull(not, "not"));
        alsoNot = naturalCopy(Objects.requireNonNull(alsoNot, "alsoNot"));
        for (String m : not) {
            if (alsoNot.contains(m)) {
                throw new IllegalArgumentException(LatticeMessages.modelInBothBoundaries(m));
            }
        }
    }

    // TreeSet(SortedSet) would keep the argument's comparator; the Collection overload sorts naturally.
    private static SortedSet<String> naturalCopy(Collection<String> names) {
        return Collections.unmodifiableSortedSet(new TreeSet<>(names));
    }

    /** True when no model is ruled out. */
    public boolean isEmpty() {
        return not.isEmpty();
    }
}
