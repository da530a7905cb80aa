package io.isowatch.gen;

import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayDeque;
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
 * <p>With {@link GeneratorOptions#closingReads()}, a key that retires is read once more: once no
 * transaction invoked with a write to it is still in flight (invoked and not completed), the next
 * idle thread invokes {@code [[:r k nil]]}, a <em>closing read</em>, before any new transaction.
 * Once {@code txnCount} transactions are invoked, every key still in the pool that some
 * transaction wrote gets its closing read the same way. A closing read is an ordinary
 * transaction in every other respect: it takes effect at a step of its own and draws the same
 * faults (fail, info, a stale read).
 *
 * <p>Every invocation is completed: the history ends with no transaction outstanding and holds
 * exactly {@code 2 × txnCount} events, plus 2 for each closing read (at most one per key
 * written; how many depends on the run, so {@link #hasNext()} knows the end only when it comes).
 *
 * <p>Cost: O(maxTxnLength × maxWritesPerKey) per event at worst (reads copy their list), plus
 * O(keyCount) once when the last transaction is invoked, with closing reads; memory
 * O((keyCount + concurrency × maxTxnLength) × maxWritesPerKey), independent of {@code txnCount}:
 * a retired key's list lives on only while a transaction in flight still touches it or, with
 * closing reads, until its closing read takes effect (keys waiting for one either have a writer
 * in flight or sit in a queue that idle threads empty before they invoke anything else). Measured at
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
    private final LongConsumer closingReadInvoked;
    /** Retired keys whose writers have all completed, oldest first: each awaits its closing read. */
    private final ArrayDeque<KeyCell> readyToClose = new ArrayDeque<>();

    /** Ordinary transactions invoked; closing reads are not counted. */
    private long invoked;
    /** Ordinary transactions to invoke: {@code txnCount}, or fewer once {@link #endEarly} is called. */
    private long limit;
    /** Threads with a transaction invoked and not yet completed. */
    private int outstanding;
    private long emitted;
    private long time;

    /**
     * A generator for the given options, which reports each transaction that takes effect, in
     * linearization order, by the index of its invocation. For tests: a serial replay in this
     * order must reproduce every ok read.
     */
    StoreGenerator(GeneratorOptions options, LongConsumer linearization) {
        this(options, linearization, invokeIndex -> { });
    }

    /**
     * As {@link #StoreGenerator(GeneratorOptions, LongConsumer)}, also reporting the index of
     * each closing read's invocation as it is handed out (for tests).
     */
    StoreGenerator(GeneratorOptions options, LongConsumer linearization, LongConsumer closingReadInvoked) {
        this.options = Objects.requireNonNull(options, "options");
        this.limit = options.txnCount();
        this.linearization = Objects.requireNonNull(linearization, "linearization");
        this.closingReadInvoked = Objects.requireNonNull(closingReadInvoked, "closingReadInvoked");
        this.random = new SplittableRandom(options.seed());
        this.keys = new KeyPool(0, options.keyCount(), options.maxWritesPerKey(), options.keyDistribution());
        this.cells = new KeyCell[options.keyCount()];
        this.threads = new ClientThread[options.concurrency()];
        this.live = new int[options.concurrency()];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = new ClientThread(i, options.maxTxnLength(), options.closingReads());
            live[i] = i;
        }
        this.liveCount = threads.length;
    }

    /**
     * The whole history of {@code generator} in a list, for tests and small runs.
     *
     * @throws IllegalArgumentException when the history's events cannot fit in a list
     */
    static List<Op> collect(GeneratorOptions options, StoreGenerator generator) {
        if (options.txnCount() > MAX_COLLECTED / 2) {
            throw tooManyToCollect(options, generator);
        }
        List<Op> history = new ArrayList<>((int) (2 * options.txnCount()));
        while (generator.hasNext()) {
            if (history.size() == MAX_COLLECTED) {
                throw tooManyToCollect(options, generator);  // closing reads on top of txnCount
            }
            history.add(generator.next());
        }
        return history;
    }

    private static final int MAX_COLLECTED = Integer.MAX_VALUE - 8;

    private static IllegalArgumentException tooManyToCollect(GeneratorOptions options, StoreGenerator generator) {
        return new IllegalArgumentException(GeneratorMessages.tooManyToCollect(options.txnCount(),
                generator.getClass().getSimpleName()));
    }

    /** The micro-op that writes {@code value} to {@code key}: an append or a register write. */
    abstract MicroOp write(long key, long value);

    /** What a read of {@code cell} returns when it sees the first {@code version} writes. */
    abstract MicroOp read(KeyCell cell, int version);

    public GeneratorOptions options() {
        return options;
    }

    /**
     * Whether an event remains: an ordinary transaction not yet invoked, one outstanding, or a
     * closing read waiting for a thread. O(1).
     */
    @Override
    public boolean hasNext() {
        return invoked < limit || outstanding > 0 || !readyToClose.isEmpty();
    }

    @Override
    public Op next() {
        if (!hasNext()) {
            throw new NoSuchElementException(GeneratorMessages.exhausted(options.txnCount()));
        }
        while (true) {
            int pick = random.nextInt(liveCount);
            ClientThread thread = threads[live[pick]];
            if (thread.phase == ClientThread.Phase.IDLE && invoked == limit && readyToClose.isEmpty()) {
                // Safe with closing reads: a key becomes ready to close only when a writer
                // completes, and the thread that completes it is live.
                live[pick] = live[--liveCount];
                continue;
            }
            time += MIN_STEP_NANOS + random.nextInt(STEP_SPREAD_NANOS);
            if (thread.phase == ClientThread.Phase.IDLE) {
                return readyToClose.isEmpty() ? invoke(thread) : invokeClosingRead(thread, readyToClose.poll());
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
        outstanding++;
        invoked++;
        if (invoked == limit && options.closingReads()) {
            closeActiveKeys();
        }
        return emit(OpType.INVOKE, thread.process, thread.invocation);
    }

    /**
     * Invokes no more ordinary transactions: the history ends once those outstanding complete
     * and, with closing reads, every key written has been read once more, as a workload that is
     * stopped ends (the stream benchmark's feeder, whose history is otherwise endless). A later
     * call changes nothing.
     */
    public void endEarly() {
        if (invoked < limit) {
            limit = invoked;
            if (options.closingReads()) {
                closeActiveKeys();
            }
        }
    }

    /** Invokes {@code [[:r k nil]]} on the retired key of {@code cell}, whose writers have all completed. */
    private Op invokeClosingRead(ClientThread thread, KeyCell cell) {
        thread.invocation = List.of(new MicroOp.Read(cell.key(), null));
        thread.cells[0] = cell;
        thread.invokeIndex = emitted;
        thread.phase = ClientThread.Phase.INVOKED;
        outstanding++;
        closingReadInvoked.accept(emitted);
        return emit(OpType.INVOKE, thread.process, thread.invocation);
    }

    /** The history is ending: every key still in the pool that was written gets its closing read. O(keyCount). */
    private void closeActiveKeys() {
        for (int slot = 0; slot < cells.length; slot++) {
            KeyCell cell = cells[slot];
            if (cell != null && cell.key() == keys.key(slot) && cell.written) {
                close(cell);
            }
        }
    }

    /** Marks the cell's key as done with writes; it is queued for its closing read once no writer is in flight. */
    private void close(KeyCell cell) {
        cell.closing = true;
        if (cell.writers == 0) {
            readyToClose.add(cell);
        }
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
                KeyCell current = options.closingReads() ? cells[slot] : null;
                long key = keys.key(slot);
                long value = keys.takeValue(slot);
                if (value == KeyPool.RETIRED) {
                    if (current != null && current.key() == key) {
                        close(current);  // its writes were handed out through cell(slot), so this is its cell
                    }
                    continue;
                }
                ops[n] = write(keys.key(slot), value);
                if (options.closingReads()) {
                    KeyCell written = cell(slot);
                    written.writers++;
                    written.written = true;
                    thread.written[thread.writeCount++] = written;
                }
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
        outstanding--;
        for (int i = 0; i < thread.writeCount; i++) {
            KeyCell cell = thread.written[i];
            thread.written[i] = null;
            if (--cell.writers == 0 && cell.closing) {
                readyToClose.add(cell);
            }
        }
        thread.writeCount = 0;
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
