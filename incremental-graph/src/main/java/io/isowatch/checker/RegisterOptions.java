package io.isowatch.checker;

/**
 * Which extra sources of version order Elle's rw-register checker may assume, besides "the
 * initial nil precedes every written value". Each is an assumption about the database; one that
 * the history contradicts (it would make a key's versions cyclic) is reported as
 * {@code cyclic-versions} and not used.
 *
 * @param wfrKeys          writes follow reads within a transaction (Elle's {@code --wfr-keys})
 * @param sequentialKeys   each key is sequentially consistent: a process's transactions see its
 *                         versions in order ({@code --sequential-keys})
 * @param linearizableKeys each key is linearizable: realtime order orders its versions
 *                         ({@code --linearizable-keys})
 */
public record RegisterOptions(boolean wfrKeys, boolean sequentialKeys, boolean linearizableKeys)
        implements java.io.Serializable {

    /** Only the initial-state inference. */
    public static final RegisterOptions NONE = new RegisterOptions(false, false, false);

    /** Whether any source beyond the initial state is assumed. */
    public boolean any() {
        return wfrKeys || sequentialKeys || linearizableKeys;
    }
}
