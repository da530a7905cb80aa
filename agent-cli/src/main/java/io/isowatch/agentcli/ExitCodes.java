package io.isowatch.agentcli;

/** Exit codes, as elle-cli uses them. */
public final class ExitCodes {

    /** Every history valid, or unknown. */
    public static final int VALID = 0;
    /** At least one history is invalid. */
    public static final int INVALID = 1;
    /** Bad input or usage: no verdict could be given. */
    public static final int ERROR = 255;

    private ExitCodes() {
    }
}
