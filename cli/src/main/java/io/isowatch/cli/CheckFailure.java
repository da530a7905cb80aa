package io.isowatch.cli;

/**
 * A check ended by a bug rather than by its input: the cause, and where in the history it
 * happened ({@code at line 12 (index 11)}, {@code reading after line 12}, {@code at the end of
 * the history}). Bad input ends a check with its own exceptions, which name the place themselves.
 */
final class CheckFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String where;

    CheckFailure(String where, Throwable cause) {
        super(where, cause);
        this.where = where;
    }

    String where() {
        return where;
    }
}
