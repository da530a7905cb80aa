/**
 * The embedded store: an in-memory, multi-threaded transactional key-value store with list and
 * register values (in the spirit of MonkeyDB, Biswas et al., OOPSLA 2021), whose isolation level
 * is chosen at start, plus fault injection. It is the demo's default target and a ground truth for
 * tests: every history it produces, without faults, satisfies its level, and with its level's
 * weaknesses exercised it shows exactly the anomalies that level allows.
 *
 * <h2>Mechanism</h2>
 * Each key keeps its recent committed versions, stamped with commit timestamps. A commit runs one
 * short critical section (Kung and Robinson's serial validation): validate, take the next
 * timestamp, install the new versions, publish the timestamp. Snapshot readers read at a
 * published timestamp, so they see every commit at or below it and nothing above it: a snapshot
 * is always a prefix of the commit order. Reads take no lock; transactions run concurrently on
 * real threads and interleave freely between their reads, writes and commits.
 *
 * <h2>The levels, and why each is exactly that level</h2>
 * <dl>
 * <dt>strict-serializable</dt>
 * <dd>Reads come from the snapshot published at begin; writes are buffered. Commit fails
 * (conflict, {@code fail}) if a key the transaction read has a newer version than its snapshot
 * (backward optimistic validation). A committed update therefore behaves as if it ran
 * atomically at its commit timestamp (its reads equal the state just before it, its appends go
 * on the latest versions); a read-only transaction behaves as if it ran at its snapshot. Both
 * points lie inside the transaction's real-time interval, and a commit is acknowledged only
 * after it is published, so the timestamp order is a serial order that respects real time.</dd>
 * <dt>serializable</dt>
 * <dd>As strict-serializable, except that a read-only transaction reads a snapshot up to
 * {@link io.isowatch.agent.store.StoreOptions#readOnlyLag()} commits old. Any published prefix
 * is a consistent state, so it still serializes (right after its snapshot), but it may miss
 * commits acknowledged before it began: realtime order is not respected.</dd>
 * <dt>snapshot-isolation</dt>
 * <dd>Reads from the snapshot published at begin. Commit fails if a key the transaction writes
 * has a version newer than its snapshot (first committer wins), which rules out lost updates
 * and every cycle with a single anti-dependency (G-single). Keys only read are not validated, so
 * write skew (G2-item) is allowed, as SI allows it.</dd>
 * <dt>read-committed</dt>
 * <dd>Each read sees the key's latest committed version; writes are buffered and installed at
 * commit without validation. A write takes the key's write lock until the transaction ends
 * (long write locks, short-or-no read locks: Gray's degree 2), so what a transaction reads back
 * of a key it wrote (latest committed plus its own writes) is exactly what it installs, and no
 * reader is shown a list order that never existed. Only final values of committed transactions
 * are ever visible (no G1a, no G1b), and every write-write and write-read dependency points
 * from an earlier commit timestamp to a later one (no G1c). Nothing else is promised:
 * non-repeatable reads, read skew, lost updates and write skew all occur. A writer that finds
 * the key locked waits for the holder to finish, as in PostgreSQL.</dd>
 * <dt>read-uncommitted</dt>
 * <dd>A write takes the key's write lock, held until the transaction ends, and makes the new
 * value visible at once; reads see it (dirty reads), and an abort discards it after others may
 * have read it (G1a), just as they may read a value the writer later extends (G1b). The locks
 * order each key's writers by their commits, so write-write dependencies cannot form a cycle
 * (no G0). A transaction whose wait would close a cycle of lock waits aborts instead (deadlock
 * detection).</dd>
 * </dl>
 *
 * <h2>Faults</h2>
 * Forced aborts (commit refused: {@code fail}), lost acknowledgements (committed, but the client
 * gets an error: {@code info}) and stale reads (a read served from one of the three previous
 * versions, as from a lagging replica). Stale reads break every level's guarantee on purpose;
 * the other two keep it.
 */
package io.isowatch.agent.store;
