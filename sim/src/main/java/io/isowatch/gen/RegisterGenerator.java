package io.isowatch.gen;

import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;

import java.util.List;
import java.util.function.LongConsumer;

/**
 * Streams an rw-register history that is strict-serializable by construction, event by event.
 *
 * <p>Transactions are shaped as Elle's {@code wr-txns}: 1..n micro-ops, each a read
 * {@code [:r k nil]} or a write {@code [:w k v]} of a value unique to its key (1, 2, 3, ... per
 * key, handed out at invocation, so an aborted write leaves a gap), over the same pool of active
 * keys as {@link ListAppendGenerator}, with a key retired once it has handed out
 * {@code maxWritesPerKey} values. The scheduler is {@link StoreGenerator}'s: a seeded pick of a client
 * thread per step, which invokes, takes effect atomically (its linearization point, no event) or
 * completes; every step moves the simulated clock by 1 to 5 µs; unknown outcomes take effect on a
 * coin flip and move their thread to process {@code process + concurrency}.
 *
 * <p>An {@code ok} completion reports each read as the register at the linearization point,
 * including the transaction's own earlier writes; a register never written reads {@code nil},
 * reported as a {@link MicroOp.Read} whose values are {@code null}, exactly what
 * {@link io.isowatch.history.codec.HistoryReader} makes of Elle's {@code ["r", k, null]}. A
 * non-nil read carries the one value. Fail and info completions repeat the invocation.
 *
 * <p>With {@link GeneratorOptions#staleReadRate()} above 0 the store is faulty: a read of a key
 * the transaction has not written returns, with that probability, one of the three versions
 * before the current one ({@code nil} counts as the first version), as a lagging replica would.
 *
 * <p>Every invocation is completed: the history holds exactly {@code 2 × txnCount} events, plus
 * 2 per closing read ({@link GeneratorOptions#closingReads()}; a closing read of a
 * register is a register read).
 * Cost: O(maxTxnLength) per event; memory O((keyCount + concurrency × maxTxnLength) ×
 * maxWritesPerKey), independent of {@code txnCount}. Not thread-safe.
 */
public final class RegisterGenerator extends StoreGenerator {

    /** A generator for the given options; the first event is the invocation with index 0. */
    public RegisterGenerator(GeneratorOptions options) {
        this(options, invokeIndex -> { });
    }

    /** As the public constructor, reporting the linearization order (for tests). */
    RegisterGenerator(GeneratorOptions options, LongConsumer linearization) {
        super(options, linearization);
    }

    /** As the public constructor, reporting the linearization order and each closing read's invocation index (for tests). */
    RegisterGenerator(GeneratorOptions options, LongConsumer linearization, LongConsumer closingReadInvoked) {
        super(options, linearization, closingReadInvoked);
    }

    /**
     * The whole history in a list, for tests and small runs.
     *
     * @throws IllegalArgumentException when the history's events (2 × txnCount, plus 2 per
     *                                  closing read) cannot fit in a list
     */
    public static List<Op> generate(GeneratorOptions options) {
        return collect(options, new RegisterGenerator(options));
    }

    @Override
    MicroOp write(long key, long value) {
        return new MicroOp.Write(key, value);
    }

    /** A register's versions are its cell's elements: after n writes it holds element n - 1, nil before. */
    @Override
    MicroOp read(KeyCell cell, int version) {
        return new MicroOp.Read(cell.key(), version == 0 ? null : new long[] {cell.element(version - 1)});
    }
}
