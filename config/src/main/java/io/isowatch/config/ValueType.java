package io.isowatch.config;

/**
 * How an option's value is written and read: the one parser behind a CLI flag, a job option and
 * the default printed in the docs, so that the three cannot disagree.
 *
 * @param <T> the parsed value's type
 */
public interface ValueType<T> {

    /**
     * Reads {@code text} as the value of the option named {@code where}.
     *
     * @throws IllegalArgumentException naming {@code where}, the text and what would be accepted
     */
    T parse(String where, String text);

    /** Writes {@code value} so that {@link #parse} reads it back equal. */
    String format(T value);

    /** The type and unit in a few words, for the docs' type column: "duration (bare number: seconds)". */
    String describe();

    /**
     * Checks an already typed value (a picocli flag) as {@link #parse} checks its result, so a
     * typed flag is never written out and read again.
     *
     * @throws IllegalArgumentException naming {@code where} and the value
     */
    default T check(String where, T value) {
        return value;
    }
}
