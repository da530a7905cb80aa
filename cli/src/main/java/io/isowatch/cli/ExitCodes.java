package io.isowatch.cli;

/** Exit codes, as elle-cli uses them. */
final class ExitCodes {

    /** Every history valid, or unknown. */
    static final int VALID = 0;
    /** At least one history is invalid. */
    static final int INVALID = 1;
    /** Bad input or usage: no verdict could be given. */
    static final int ERROR = 255;

    private ExitCodes() {
    }
}
