package io.isowatch.graph;

/**
 * The relationships that order two transactions in Adya's dependency graph, plus the two
 * session orders Elle adds.
 */
public enum EdgeKind {
    /** Write dependency: the target overwrote (appended after) the source's write. */
    WW("ww"),
    /** Read dependency: the target read the source's write. */
    WR("wr"),
    /** Anti-dependency: the target overwrote the version the source read. */
    RW("rw"),
    /** The same process ran the source, then the target. */
    PROCESS("process"),
    /** The source completed before the target was invoked. */
    REALTIME("realtime");

    private final String elleName;

    EdgeKind(String elleName) {
        this.elleName = elleName;
    }

    /** The name Elle gives this relationship. */
    public String elleName() {
        return elleName;
    }

    /** The bit of this kind in a set of kinds held as an int mask (as the graph keeps a pair's kinds). */
    public int bit() {
        return 1 << ordinal();
    }
}
