package io.isowatch.checker;

import io.isowatch.history.Op;

import java.util.List;
import java.util.SplittableRandom;

/**
 * {@link CheckerMutator}'s faults for rw-register histories: a committed transaction reported as
 * failed (its writes already seen), and a read that returns nil, garbage, or any value written to
 * its key anywhere in the history (a stale read, a read of the future, of an aborted or of an
 * intermediate write). Indices, processes and the invoke / completion structure are kept, and a
 * read still returns one value, so the result is a well-formed register history.
 */
final class RegisterMutator {

    private RegisterMutator() {
    }

    /** Mutates each ok completion with probability {@code rate}. */
    static List<Op> mutate(List<Op> history, double rate, SplittableRandom random) {
        return CheckerMutator.mutate(history, rate, random, 5, (r, written, what, rnd) -> read(written, rnd));
    }

    /** Nil, garbage, or a value written to the key, as a register read's values. */
    private static long[] read(List<Long> written, SplittableRandom random) {
        int what = random.nextInt(6);
        if (what == 0) {
            return null;
        }
        if (what == 1 || written.isEmpty()) {
            return new long[] {CheckerMutator.GARBAGE};
        }
        return new long[] {written.get(random.nextInt(written.size()))};
    }
}
