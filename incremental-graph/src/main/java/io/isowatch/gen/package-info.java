/**
 * Synthetic Jepsen histories from a simulated store that is strict-serializable by construction.
 *
 * <p>{@link io.isowatch.gen.ListAppendGenerator} plays {@code concurrency} client threads against
 * an in-memory map from key to list. Transactions are shaped as Elle's {@code elle.txn/wr-txns}
 * shapes them: 1..n micro-ops over a small pool of active keys, each a read or an append of a
 * value unique to its key, with a key retired and replaced by a fresh one once it has taken
 * {@code maxWritesPerKey} appends. Each transaction takes effect atomically at one scheduler step
 * strictly between its invocation and its completion, so the linearization order respects real
 * time and every {@code ok} read is the list as of that instant: a correct checker must find
 * every generated history valid under strict serializability, whatever the faults.
 *
 * <p>Invariants of every generated history: indices are dense from 0, times strictly increase,
 * each process has at most one transaction outstanding, a process that receives {@code info}
 * never invokes again, every invocation is completed, and append values are unique per key.
 * The same options (seed included) always yield the same history.
 *
 * <p>Generation streams: memory is proportional to {@code (keyCount + concurrency × maxTxnLength)
 * × maxWritesPerKey}, never to the history's length. Like the rest of the core, this package
 * has no clock and no threads; "time" is a simulated clock driven by the seeded random source.
 *
 * <p>A register (rw-register) mode will reuse the key pool and the scheduler; only the micro-op
 * kinds and the store's cell semantics differ.
 *
 * @see <a href="https://github.com/jepsen-io/elle">Elle: list-append workload and wr-txns</a>
 */
package io.isowatch.gen;
