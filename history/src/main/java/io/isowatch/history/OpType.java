package io.isowatch.history;

/** The four Jepsen operation types. */
public enum OpType {
    /** A client began an operation. */
    INVOKE("invoke"),
    /** The operation definitely took effect (for a transaction: committed). */
    OK("ok"),
    /** The operation definitely did not take effect (for a transaction: aborted). */
    FAIL("fail"),
    /** The outcome is unknown; the process that issued it never invokes again. */
    INFO("info");

    private final String jepsenName;

    OpType(String jepsenName) {
        this.jepsenName = jepsenName;
    }

    /** The name used in Jepsen histories: {@code invoke}, {@code ok}, {@code fail}, {@code info}. */
    public String jepsenName() {
        return jepsenName;
    }

    /** True for ok, fail and info. */
    public boolean isCompletion() {
        return this != INVOKE;
    }
}
