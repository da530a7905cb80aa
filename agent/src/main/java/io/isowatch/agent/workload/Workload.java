package io.isowatch.agent.workload;

import java.util.Locale;

/** The transaction shapes the runner generates, named as Elle's workloads. */
public enum Workload {
    /** Appends of unique values to lists, and reads of whole lists: Elle's {@code list-append}. */
    LIST_APPEND("list-append"),
    /** Writes of unique values to registers, and register reads: Elle's {@code rw-register}. */
    RW_REGISTER("rw-register");

    private final String elleName;

    Workload(String elleName) {
        this.elleName = elleName;
    }

    public String elleName() {
        return elleName;
    }

    /**
     * Parses {@code list-append} or {@code rw-register}, case-insensitively.
     *
     * @throws IllegalArgumentException for any other name
     */
    public static Workload fromName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (Workload w : values()) {
            if (w.elleName.equals(n)) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown workload '" + name + "'; expected list-append or rw-register");
    }
}
