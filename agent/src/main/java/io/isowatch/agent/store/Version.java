package io.isowatch.agent.store;

import java.util.Arrays;

/**
 * One committed value of a key: the first {@code length} elements of {@code elements}, as of
 * commit timestamp {@code ts}.
 *
 * <p>Successive list versions of one key share one backing array, each seeing a longer prefix:
 * an append extends the array past the head's length, where no version looks, so older versions
 * never change and a key costs memory proportional to its longest list, not to its number of
 * versions. A register write starts a fresh array.
 */
record Version(long ts, long[] elements, int length) {

    static final Version INITIAL = new Version(0, new long[0], 0);

    /** A copy of this version's value, which the caller owns. */
    long[] copy() {
        return Arrays.copyOf(elements, length);
    }

    /**
     * The version at {@code newTs} that holds this value followed by {@code tail}, or only
     * {@code tail} when {@code replace}. Called only by the one thread installing into the key,
     * on the key's newest version, so the slots past {@code length} are free to write.
     */
    Version extend(long newTs, boolean replace, long[] tail, int tailLength) {
        if (replace) {
            return new Version(newTs, Arrays.copyOf(tail, tailLength), tailLength);
        }
        int newLength = length + tailLength;
        long[] target = elements;
        if (newLength > target.length) {
            target = Arrays.copyOf(elements, Math.max(newLength, Math.max(8, elements.length * 2)));
        }
        System.arraycopy(tail, 0, target, length, tailLength);
        return new Version(newTs, target, newLength);
    }
}
