package io.isowatch.checker;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Has the JIT compile the checker's eviction before a real history needs it.
 *
 * <p>A stream job's checker forgets once every half {@code history-retention}, so in a fresh JVM
 * its first eviction runs the copying loops of {@link IncrementalChecker#evictInvokedBefore}
 * interpreted, over millions of transactions held: two to three times as long as every later one
 * (BENCHMARKS.md, "Every finding live"), and the findings of that moment wait that long. Checking
 * a small made-up history while forgetting, on a background thread at the job's start, compiles
 * those loops for every checker in the JVM, since compiled code is shared.
 *
 * <p>The made-up history is serial (each transaction completes before the next is invoked), so
 * every model allows it: {@link #run} reports any finding as a failure rather than ignore it.
 */
public final class EvictionWarmup {

    private static final AtomicBoolean STARTED = new AtomicBoolean();

    /** Transactions per workload: enough for the eviction loops to be compiled, a second of CPU at most. */
    static final int TRANSACTIONS = 120_000;

    /** Transactions kept after each eviction. */
    static final int WINDOW = 20_000;

    /** Appends or writes per key before it retires, so reads stay short. */
    private static final int WRITES_PER_KEY = 32;

    private static final int PROCESSES = 8;

    private EvictionWarmup() {
    }

    /** Starts the warm-up on a daemon thread, once per JVM; later calls do nothing. */
    public static void startOnce() {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        Thread thread = new Thread(EvictionWarmup::run, "isowatch-eviction-warmup");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    /** Warms the eviction of both workloads on this thread. */
    public static void run() {
        run(Workload.LIST_APPEND);
        run(Workload.RW_REGISTER);
    }

    /**
     * Checks a serial made-up history of {@code workload} while forgetting all but the last
     * {@link #WINDOW} transactions every quarter window, and returns how many transactions the
     * checker forgot.
     *
     * @throws IllegalStateException if the checker reports a finding: the history is serial, so
     *                               one would be a false alarm
     */
    static long run(Workload workload) {
        List<String> findings = new ArrayList<>();
        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().toBuilder().workload(workload).build(),
                new AtomTable(), f -> findings.add(f.type().elleName()));
        long index = 0;
        long[] written = new long[WRITES_PER_KEY];
        for (int txn = 0; txn < TRANSACTIONS; txn++) {
            long key = txn / WRITES_PER_KEY;
            int nth = txn % WRITES_PER_KEY;
            long value = txn + 1L;
            written[nth] = value;
            long process = txn % PROCESSES;
            MicroOp write = workload == Workload.RW_REGISTER
                    ? new MicroOp.Write(key, value) : new MicroOp.Append(key, value);
            checker.accept(new Op(index, index, OpType.INVOKE, process,
                    List.of(write, new MicroOp.Read(key, null))));
            index++;
            long[] seen = workload == Workload.RW_REGISTER
                    ? new long[] {value} : Arrays.copyOf(written, nth + 1);
            checker.accept(new Op(index, index, OpType.OK, process, List.of(write, new MicroOp.Read(key, seen))));
            index++;
            if (txn >= WINDOW && txn % (WINDOW / 4) == 0) {
                checker.evictInvokedBefore(index - 2L * WINDOW);
            }
        }
        checker.finish();
        if (!findings.isEmpty()) {
            throw new IllegalStateException("the eviction warm-up's serial history got findings " + findings
                    + ": the checker reports anomalies in a history every model allows");
        }
        return checker.forgottenTransactions();
    }
}
