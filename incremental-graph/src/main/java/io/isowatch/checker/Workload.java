package io.isowatch.checker;

/** The kinds of history isowatch checks, by Elle's checker names. */
public enum Workload {
    /** Transactions of appends to and reads of lists: every read reveals the version order. */
    LIST_APPEND("list-append"),
    /** Transactions of writes and reads of registers: version orders must be inferred. */
    RW_REGISTER("rw-register");

    private final String elleName;

    Workload(String elleName) {
        this.elleName = elleName;
    }

    /** {@code list-append} or {@code rw-register}, as elle-cli's {@code -m} names them. */
    public String elleName() {
        return elleName;
    }

    /** The workload of that name, or null. */
    public static Workload byElleName(String name) {
        for (Workload w : values()) {
            if (w.elleName.equals(name)) {
                return w;
            }
        }
        return null;
    }
}
