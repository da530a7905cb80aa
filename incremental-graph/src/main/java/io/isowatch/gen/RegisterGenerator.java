package io.isowatch.gen;

import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * Streams an rw-register history that is strict-serializable by construction, event by event.
 *
 * <p>Transactions are shaped as Elle's {@code wr-txns}: 1..n micro-ops, each a read
 * {@code [:r k nil]} or a write {@code [:w k v]} of a value unique to its key (1, 2, 3, ... per
 * key, handed out at invocation, so an aborted write leaves a gap), over the same pool of active
 * keys as {@link ListAppendGenerator}, with a key retired once it has handed out
 * {@code maxWritesPerKey} values. The scheduler is the list-append one: a seeded pick of a client
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
 * <p>Every invocation is completed: the history holds exactly {@code 2 × txnCount} events.
 * Cost: O(maxTxnLength) per event; memory O((keyCount + concurrency × maxTxnLength) ×
 * maxWritesPerKey), independent of {@code txnCount}. Not thread-safe.
 */
public final class RegisterGenerator implements Iterator<Op> {

    private final GeneratorOptions options;
    private final SplittableRandom random;
    private final KeyPool keys;
    private final ClientThread[] threads;
    /** Threads that may still act, in {@code live[0, liveCount)}. */
    private final int[] live;
    private int liveCount;
    private final LongConsumer linearization;
    private final long eventCount;

    private long invoked;
    private long emitted;
    private long time;

    /** A generator for the given options; the first event is the invocation with index 0. */
    public RegisterGenerator(GeneratorOptions options) {
        this(options, invokeIndex -> { });
    }

    /**
     * As the public constructor, and reports each transaction that takes effect, in
     * linearization order, by the index of its invocation. For tests: a serial replay in this
     * order must reproduce every ok read of a fault-free history.
     */
    RegisterGenerator(GeneratorOptions options, LongConsumer linearization) {
        this.options = Objects.requireNonNull(options, "options");
        this.linearization = Objects.requireNonNull(linearization, "linearization");
        this.random = new SplittableRandom(options.seed());
        this.keys = new KeyPool(options.keyCount(), options.keyDistribution());
        this.threads = new ClientThread[options.concurrency()];
        this.live = new int[options.concurrency()];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = new ClientThread(i, options.maxTxnLength());
            live[i] = i;
        }
        this.liveCount = threads.length;
        this.eventCount = 2 * options.txnCount();
    }

    /**
     * The whole history in a list, for tests and small runs.
     *
     * @throws IllegalArgumentException when {@code 2 × txnCount} events cannot fit in a list
     */
    public static List<Op> generate(GeneratorOptions options) {
        if (options.txnCount() > (Integer.MAX_VALUE - 8) / 2) {
            throw new IllegalArgumentException(RegisterMessages.tooManyToCollect(options.txnCount()));
        }
        List<Op> history = new ArrayList<>((int) (2 * options.txnCount()));
        new RegisterGenerator(options).forEachRemaining(history::add);
        return history;
    }

    public GeneratorOptions options() {
        return options;
    }

    @Override
    public boolean hasNext() {
        return emitted < eventCount;
    }

    @Override
    public Op next() {
        if (!hasNext()) {
            throw new NoSuchElementException(GeneratorMessages.exhausted(options.txnCount()));
        }
        while (true) {
            int pick = random.nextInt(liveCount);
            ClientThread thread = threads[live[pick]];
            if (thread.phase == ClientThread.Phase.IDLE && invoked == options.txnCount()) {
                live[pick] = live[--liveCount];
                continue;
            }
            time += ListAppendGenerator.MIN_STEP_NANOS + random.nextInt(ListAppendGenerator.STEP_SPREAD_NANOS);
            if (thread.phase == ClientThread.Phase.IDLE) {
                return invoke(thread);
            }
            if (thread.phase == ClientThread.Phase.EXECUTED) {
                return complete(thread);
            }
            execute(thread);
        }
    }

    private Op invoke(ClientThread thread) {
        thread.invocation = plan(thread);
        thread.invokeIndex = emitted;
        thread.phase = ClientThread.Phase.INVOKED;
        invoked++;
        return emit(OpType.INVOKE, thread.process, thread.invocation);
    }

    /**
     * Shapes a transaction as Elle's {@code wr-txns}: a length drawn from the range, then for
     * each micro-op a kind and a key; a write to a key that has handed out all its values
     * retires the key and draws the micro-op again without counting it.
     */
    private List<MicroOp> plan(ClientThread thread) {
        int length = options.minTxnLength() + random.nextInt(options.maxTxnLength() - options.minTxnLength() + 1);
        MicroOp[] ops = new MicroOp[length];
        int n = 0;
        while (n < length) {
            boolean read = random.nextDouble() < options.readProbability();
            int slot = keys.pickSlot(random);
            KeyCell cell = keys.cell(slot);
            if (read) {
                ops[n] = new MicroOp.Read(cell.key(), null);
            } else if (cell.valuesIssued() >= options.maxWritesPerKey()) {
                keys.retire(slot);
                continue;
            } else {
                ops[n] = new MicroOp.Write(cell.key(), cell.issueValue());
            }
            thread.cells[n++] = cell;
        }
        return List.of(ops);
    }

    /** The transaction's linearization point: decide its outcome and apply it to the store. */
    private void execute(ClientThread thread) {
        double draw = random.nextDouble();
        if (draw < options.failRate()) {
            thread.outcome = OpType.FAIL;
            thread.completion = thread.invocation;
        } else if (draw < options.failRate() + options.infoRate()) {
            thread.outcome = OpType.INFO;
            thread.completion = thread.invocation;
            if (random.nextBoolean()) {
                apply(thread);
            }
        } else {
            thread.outcome = OpType.OK;
            thread.completion = apply(thread);
        }
        Arrays.fill(thread.cells, 0, thread.invocation.size(), null);
        thread.phase = ClientThread.Phase.EXECUTED;
    }

    /**
     * Applies the transaction atomically and returns its micro-ops with the reads filled in. A
     * register's versions are its cell's elements: after {@code n} writes it holds element
     * {@code n - 1}, and {@code nil} before the first.
     */
    private List<MicroOp> apply(ClientThread thread) {
        List<MicroOp> invocation = thread.invocation;
        MicroOp[] completed = new MicroOp[invocation.size()];
        for (int i = 0; i < completed.length; i++) {
            MicroOp op = invocation.get(i);
            KeyCell cell = thread.cells[i];
            if (op instanceof MicroOp.Write write) {
                cell.append(write.value());
                completed[i] = op;
                continue;
            }
            int version = cell.size();
            if (options.staleReadRate() > 0 && version > 0 && !writtenEarlier(invocation, i)
                    && random.nextDouble() < options.staleReadRate()) {
                // A fault: a lagging replica serves one of the three versions before the current one.
                version -= 1 + random.nextInt(Math.min(3, version));
            }
            completed[i] = new MicroOp.Read(cell.key(), version == 0 ? null : new long[] {cell.element(version - 1)});
        }
        linearization.accept(thread.invokeIndex);
        return List.of(completed);
    }

    private static boolean writtenEarlier(List<MicroOp> txn, int i) {
        long key = txn.get(i).key();
        for (int j = 0; j < i; j++) {
            if (txn.get(j) instanceof MicroOp.Write && txn.get(j).key() == key) {
                return true;
            }
        }
        return false;
    }

    private Op complete(ClientThread thread) {
        Op op = emit(thread.outcome, thread.process, thread.completion);
        if (thread.outcome == OpType.INFO) {
            thread.process += options.concurrency();
        }
        thread.invocation = null;
        thread.completion = null;
        thread.outcome = null;
        thread.phase = ClientThread.Phase.IDLE;
        return op;
    }

    private Op emit(OpType type, long process, List<MicroOp> value) {
        return new Op(emitted++, time, type, process, value);
    }
}
