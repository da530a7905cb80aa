package io.isowatch.agent.store;

/**
 * A key's state: its recent committed versions and, at read-committed and read-uncommitted, the
 * write lock held by one transaction until it ends (plus, at read-uncommitted, its uncommitted
 * value).
 *
 * <p>{@link #versions} is an immutable array, oldest first, replaced wholesale on each install
 * (copy-on-write), so readers need no lock. Installs happen only inside the store's commit
 * section, one at a time.
 */
final class Cell {

    private volatile Version[] versions = {Version.INITIAL};

    /** Read-uncommitted: the lock holder's value including its uncommitted writes; null when none. Immutable arrays. */
    volatile long[] dirty;

    /** Read-committed and read-uncommitted: the transaction holding the write lock; guarded by the {@link LockTable}. */
    StoreTransaction writer;

    /** The newest committed (installed) version. */
    Version head() {
        Version[] v = versions;
        return v[v.length - 1];
    }

    /** The newest version committed at or before {@code snapshot}, or null when it has been discarded. */
    Version at(long snapshot) {
        Version[] v = versions;
        for (int i = v.length - 1; i >= 0; i--) {
            if (v[i].ts() <= snapshot) {
                return v[i];
            }
        }
        return null;
    }

    /** The version {@code back} installs before {@code version}, or the oldest one kept. */
    Version before(Version version, int back) {
        Version[] v = versions;
        for (int i = v.length - 1; i >= 0; i--) {
            if (v[i] == version) {
                return v[Math.max(0, i - back)];
            }
        }
        return v[0];
    }

    /** Makes {@code version} the newest, keeping at most {@code keep} versions. Commit section only. */
    void install(Version version, int keep) {
        Version[] old = versions;
        int kept = Math.min(old.length, keep - 1);
        Version[] next = new Version[kept + 1];
        System.arraycopy(old, old.length - kept, next, 0, kept);
        next[kept] = version;
        versions = next;
    }
}
