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
 * Streams a history from a simulated store that is strict-serializable by construction, event by
 * event; {@link ListAppendGenerator} and {@link RegisterGenerator} say what its values are.
 *
 * <p>A seeded scheduler repeatedly picks one of the {@code concurrency} client threads at random
 * and advances it one phase: an idle thread invokes a new transaction (an {@code invoke} event);
 * an invoked one takes effect against the store atomically, with no event (its linearization
 * point); an executed one completes (an {@code ok}, {@code fail} or {@code info} event). Every
 * step moves the simulated clock forward by 1 to 5 µs, so each linearization point lies strictly
 * between its transaction's invocation and completion, and the linearization order is one the
 * real-time order allows. An {@code ok} completion reports each read as the list at that point,
 * including the transaction's own earlier appends. Aborted transactions never take effect;
 * those with an unknown outcome take effect on a coin flip, and their thread continues under a
 * new process id, {@code process + concurrency}, as Jepsen's interpreter does.
 *
 * <p>Every invocation is completed: the history ends with no transaction outstanding and holds
 * exactly {@code 2 × txnCount} events.
 *
 * <p>Cost: O(maxTxnLength × maxWritesPerKey) per event at worst (reads copy their list); memory
 * O((keyCount + concurrency × maxTxnLength) × maxWritesPerKey), independent of {@code txnCount}:
 * a retired key's list lives on only while a transaction in flight still touches it. Measured at
 * about 4 million transactions a second on one core once warm, and 10 million transactions
 * stream through a 32 MB heap. Not thread-safe.
 */
public abstract class StoreGenerator implements Iterator<Op> {

    /** Each scheduler step advances the clock by MIN_STEP_NANOS plus up to STEP_SPREAD_NANOS. */
    static final long MIN_STEP_NANOS = 1_000;
    static final int STEP_SPREAD_NANOS = 4_001;

    private final GeneratorOptions options;
    private final SplittableRandom random;
    private final KeyPool keys;
    /** The store's cell for each pool slot's key; replaced once the pool has retired that key. */
    private final KeyCell[] cells;
    private final ClientThread[] threads;
    /** Threads that may still act, in {@code live[0, liveCount)}; a thread leaves once idle with nothing left to invoke. */
    private final int[] live;
    private int liveCount;
    private final LongConsumer linearization;
    private final long eventCount;

    private long invoked;
    private long emitted;
    private long time;

    /**
     * A generator for the given options, which reports each transaction that takes effect, in
     * linearization order, by the index of its invocation. For tests: a serial replay in this
     * order must reproduce every ok read.
     */
    StoreGenerator(GeneratorOptions options, LongConsumer linearization) {
        this.options = Objects.requireNonNull(options, "options");
        this.linearization = Objects.requireNonNull(linearization, "linearization");
        this.random = new SplittableRandom(options.seed());
        this.keys = new KeyPool(0, options.keyCount(), options.maxWritesPerKey(), options.keyDistribution());
        this.cells = new KeyCell[options.keyCount()];
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
     * The whole history of {@code generator} in a list, for tests and small runs.
     *
     * @throws IllegalArgumentException when {@code 2 × txnCount} events cannot fit in a list
     */
    static List<Op> collect(GeneratorOptions options, StoreGenerator generator) {
        if (options.txnCount() > (Integer.MAX_VALUE - 8) / 2) {
            throw new IllegalArgumentException(GeneratorMessages.tooManyToCollect(options.txnCount(),
                    generator.getClass().getSimpleName()));
        }
        List<Op> history = new ArrayList<>((int) (2 * options.txnCount()));
        generator.forEachRemaining(history::add);
        return history;
    }

    /** The micro-op that writes {@code value} to {@code key}: an append or a register write. */
    abstract MicroOp write(long key, long value);

    /** What a read of {@code cell} returns when it sees the first {@code version} writes. */
    abstract MicroOp read(KeyCell cell, int version);

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
            time += MIN_STEP_NANOS + random.nextInt(STEP_SPREAD_NANOS);
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
     * each micro-op a kind and a key; a write to a key that has used up its values retires the
     * key and draws the micro-op again without counting it ({@link KeyPool#takeValue}).
     */
    private List<MicroOp> plan(ClientThread thread) {
        int length = options.minTxnLength() + random.nextInt(options.maxTxnLength() - options.minTxnLength() + 1);
        MicroOp[] ops = new MicroOp[length];
        int n = 0;
        while (n < length) {
            boolean read = random.nextDouble() < options.readProbability();
            int slot = keys.pickSlot(random);
            if (read) {
                ops[n] = new MicroOp.Read(keys.key(slot), null);
            } else {
                long value = keys.takeValue(slot);
                if (value == KeyPool.RETIRED) {
                    continue;
                }
                ops[n] = write(keys.key(slot), value);
            }
            thread.cells[n++] = cell(slot);
        }
        return List.of(ops);
    }

    /** The store's cell of the key now in {@code slot}: a new, empty one once the pool has put a fresh key there. */
    private KeyCell cell(int slot) {
        KeyCell cell = cells[slot];
        long key = keys.key(slot);
        if (cell == null || cell.key() != key) {
            cell = new KeyCell(key);
            cells[slot] = cell;
        }
        return cell;
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

    /** Applies the transaction atomically and returns its micro-ops with the reads filled in. */
    private List<MicroOp> apply(ClientThread thread) {
        List<MicroOp> invocation = thread.invocation;
        MicroOp[] completed = new MicroOp[invocation.size()];
        for (int i = 0; i < completed.length; i++) {
            MicroOp op = invocation.get(i);
            KeyCell cell = thread.cells[i];
            if (!(op instanceof MicroOp.Read)) {
                cell.append(op instanceof MicroOp.Append a ? a.value() : ((MicroOp.Write) op).value());
                completed[i] = op;
                continue;
            }
            int version = cell.size();
            if (options.staleReadRate() > 0 && version > 0 && !writtenEarlier(invocation, i)
                    && random.nextDouble() < options.staleReadRate()) {
                // A fault: a lagging replica serves one of the three versions before the current one.
                version -= 1 + random.nextInt(Math.min(3, version));
            }
            completed[i] = read(cell, version);
        }
        linearization.accept(thread.invokeIndex);
        return List.of(completed);
    }

    private static boolean writtenEarlier(List<MicroOp> txn, int i) {
        long key = txn.get(i).key();
        for (int j = 0; j < i; j++) {
            if (!(txn.get(j) instanceof MicroOp.Read) && txn.get(j).key() == key) {
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
