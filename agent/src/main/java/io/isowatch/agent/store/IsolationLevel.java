package io.isowatch.agent.store;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The isolation levels the {@link EmbeddedStore} implements, named as Elle names the consistency
 * model each one guarantees. How each level is implemented, and why it gives exactly that level,
 * is described in the {@linkplain io.isowatch.agent.store package documentation}.
 */
public enum IsolationLevel {
    /** Serializable, and the order respects real time: a transaction sees every commit acknowledged before it began. */
    STRICT_SERIALIZABLE("strict-serializable"),
    /** Serializable; a read-only transaction may read an older committed snapshot (it may miss recent commits). */
    SERIALIZABLE("serializable"),
    /** Reads from a snapshot taken at begin; of two concurrent writers of one key, the first to commit wins. */
    SNAPSHOT_ISOLATION("snapshot-isolation"),
    /** Each read sees the latest committed value; writes take effect at commit. */
    READ_COMMITTED("read-committed"),
    /** Reads may see the uncommitted writes of transactions still running, even ones that later abort. */
    READ_UNCOMMITTED("read-uncommitted");

    private final String elleName;

    IsolationLevel(String elleName) {
        this.elleName = elleName;
    }

    /** The name of the consistency model in Elle (and in {@code isowatch check -c}). */
    public String elleName() {
        return elleName;
    }

    /**
     * Parses an Elle name ({@code snapshot-isolation}), case-insensitively; underscores are
     * accepted for dashes.
     *
     * @throws IllegalArgumentException naming the known levels when {@code name} is none of them
     */
    public static IsolationLevel fromName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (IsolationLevel level : values()) {
            if (level.elleName.equals(n)) {
                return level;
            }
        }
        throw new IllegalArgumentException("unknown isolation level '" + name + "'; the embedded store implements "
                + Arrays.stream(values()).map(IsolationLevel::elleName).collect(Collectors.joining(", ")));
    }
}
