package io.isowatch.agent.store;

/** Why the {@link EmbeddedStore} aborted a transaction. */
public enum AbortReason {
    /** Optimistic validation failed: a key the transaction read (serializable) or wrote (snapshot isolation) changed since its snapshot. */
    CONFLICT,
    /** Read-committed and read-uncommitted: waiting for a write lock would have closed a deadlock. */
    DEADLOCK,
    /** The version a snapshot read needed has been discarded. */
    SNAPSHOT_TOO_OLD,
    /** Injected fault: the commit was refused. */
    INJECTED,
    /** The client asked to roll back. */
    ROLLBACK
}
