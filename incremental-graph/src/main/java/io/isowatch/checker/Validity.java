package io.isowatch.checker;

/** Elle's {@code :valid?}: true, false, or unknown. */
public enum Validity {
    TRUE("true"),
    FALSE("false"),
    UNKNOWN("unknown");

    private final String elleName;

    Validity(String elleName) {
        this.elleName = elleName;
    }

    /** {@code true}, {@code false} or {@code unknown}, as Elle prints it. */
    public String elleName() {
        return elleName;
    }
}
