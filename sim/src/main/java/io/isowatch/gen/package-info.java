/**
 * Synthetic Jepsen histories from a simulated store that is strict-serializable by construction.
 *
 * <p>{@link io.isowatch.gen.StoreGenerator} plays {@code concurrency} client threads against an
 * in-memory map from key to versions; {@link io.isowatch.gen.ListAppendGenerator} makes its
 * values lists that transactions append to, {@link io.isowatch.gen.RegisterGenerator} registers
 * that they write. Transactions are shaped as Elle's {@code elle.txn/wr-txns} shapes them: 1..n
 * micro-ops over a small pool of active keys ({@code KeyPool}), each a read or a write of a value
 * unique to its key, with a key retired and replaced by a fresh one once it has taken
 * {@code maxWritesPerKey} writes. Each transaction takes effect atomically at one scheduler step
 * strictly between its invocation and its completion, so the linearization order respects real
 * time and every {@code ok} read is the value as of that instant: a correct checker must find
 * every generated history valid under strict serializability, whatever the aborts and unknown
 * outcomes ({@code failRate}, {@code infoRate}). The one fault that breaks this on purpose is
 * {@code staleReadRate}: a read then returns one of the three versions before the current one, as
 * a lagging replica would, so the checker has something to find.
 *
 * <p>With {@code closingReads} (on in {@code isowatch gen}, off in {@code GeneratorOptions.defaults()}),
 * a key that retires is read once more in a transaction of its own, {@code [[:r k nil]]}, once
 * every transaction invoked with a write to it has completed; and when the history ends, so is
 * every key written and not yet read so. Elle places appends nobody read after the last element
 * observed, an inference that rests on an absence and so waits for the history's end; a closing
 * read turns it into evidence while the history runs. Closing reads come on top of
 * {@code txnCount}.
 *
 * <p>Invariants of every generated history: indices are dense from 0, times strictly increase,
 * each process has at most one transaction outstanding, a process that receives {@code info}
 * never invokes again, every invocation is completed, and written values are unique per key.
 * The same options (seed included) always yield the same history.
 *
 * <p>Generation streams: memory is proportional to {@code (keyCount + concurrency × maxTxnLength)
 * × maxWritesPerKey}, never to the history's length. Like the rest of the core, this package
 * has no clock and no threads; "time" is a simulated clock driven by the seeded random source.
 *
 *
 * @see <a href="https://github.com/jepsen-io/elle">Elle: list-append workload and wr-txns</a>
 */
package io.isowatch.gen;
