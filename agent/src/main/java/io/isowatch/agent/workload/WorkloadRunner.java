package io.isowatch.agent.workload;

import io.isowatch.agent.client.ClientFactory;
import io.isowatch.agent.client.DatabaseClient;
import io.isowatch.agent.client.DefinitelyAbortedException;
import io.isowatch.agent.client.IndeterminateException;
import io.isowatch.agent.recorder.HistoryMember;
import io.isowatch.agent.recorder.HistoryRecorder;
import io.isowatch.history.MicroOp;
import io.isowatch.history.OpType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;

/**
 * Runs an Elle-style workload: {@link WorkloadOptions#concurrency()} worker threads, each with
 * its own {@link DatabaseClient}, run generated transactions and record every invocation and
 * completion through a {@link HistoryRecorder}.
 *
 * <p>Worker {@code w} starts as process {@code w} (plus {@link #firstProcess(long)}). A transaction that ends indeterminately is
 * recorded as {@code info}; its process never invokes again: the worker discards its client and
 * continues as process {@code p + concurrency} with a fresh one, so process ids stay unique.
 * Every client is opened with its worker's index, so a factory that spreads clients over several
 * nodes keeps a worker, and each process that replaces another, on one node.
 * When the recorder records a history shared with other agents ({@link HistoryRecorder#member()}),
 * these are the member's own numbers: process {@code n} is recorded as
 * {@link HistoryMember#process(long)}, and the {@code n}-th value written to a key is
 * {@link HistoryMember#value(long)}, so no two agents of the history share a process or write the
 * same value to the same key.
 * An unexpected runtime exception from a client is treated the same way (the outcome is unknown)
 * and logged. A failure of the recorder (its log, say) stops the run and is rethrown by
 * {@link #run()}.
 *
 * <p>The run ends when the duration has passed, the transaction limit is reached, or
 * {@link #stop()} is called; open transactions finish first. Each instance runs once.
 *
 * <p>Closing reads ({@link WorkloadOptions#closingReads()}, on by default): when the generator
 * retires a key, the key is owed one more read, {@code [[:r k nil]]}, recorded with
 * {@link HistoryRecorder#retireKey} like any transaction. It becomes due once every transaction
 * generated with a write to the key has completed; workers take a due closing read before they
 * generate a new transaction, and run it on their current process (an {@code info} retires
 * the process as for any transaction). Generating a transaction and recording its invocation
 * happen under the generator's lock, so the recorder's open writers of a key are exactly the
 * generated writers not yet completed, and the recorder is the one place that decides when a
 * key is due. When the run ends (duration, limit or {@link #stop()}), once every worker's last
 * transaction has completed, the workers read every key written and not yet read so, one read
 * per key, then stop. So no append is left unread unless a closing read itself fails. Closing
 * reads take a slot of the rate, do not count against the transaction limit, and are included
 * in the counts of results and progress reports ({@link WorkloadResult#closingReads()} says how
 * many). They are skipped at the end when the run stops on a failure or an interrupt.
 */
public final class WorkloadRunner {

    private static final Logger LOG = LoggerFactory.getLogger(WorkloadRunner.class);
    private static final int LOGGED_CLIENT_ERRORS = 5;

    private final WorkloadOptions options;
    private final ClientFactory clients;
    private final HistoryRecorder recorder;
    private final TransactionGenerator generator;
    private final RateLimiter rateLimiter;
    private Consumer<WorkloadProgress> progress = p -> { };
    private Duration progressInterval = Duration.ofSeconds(1);
    private LongSupplier backlog;
    private long firstProcess;
    /** From the worker's own process number to the one recorded: the member's numbering, or none. */
    private final LongUnaryOperator processIds;

    private final LongAdder ok = new LongAdder();
    private final LongAdder fail = new LongAdder();
    private final LongAdder info = new LongAdder();
    private final AtomicLong invoked = new AtomicLong();
    private final LongAdder closingReads = new LongAdder();
    /** Whether a retired key is due its closing read; made once, as this runs before every transaction. */
    private final LongPredicate noOpenWriters;
    private final AtomicLong clientErrors = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopping;
    /** Set on a failure or an interrupt: the end's closing reads are skipped. */
    private volatile boolean abandoned;
    private volatile boolean started;

    /**
     * How long a fleet's keys stay current: long enough that the agents write each key together
     * for most of it, short enough that its lists stay short (a second of a busy fleet's appends).
     */
    public static final long KEY_GENERATION_NANOS = 1_000_000_000L;

    public WorkloadRunner(WorkloadOptions options, ClientFactory clients, HistoryRecorder recorder) {
        this.options = Objects.requireNonNull(options, "options");
        this.clients = Objects.requireNonNull(clients, "clients");
        this.recorder = Objects.requireNonNull(recorder, "recorder");
        HistoryMember member = recorder.member().orElse(null);
        this.generator = member == null ? new TransactionGenerator(options)
                : new TransactionGenerator(options, member::value, keyGenerations(recorder));
        this.processIds = member == null ? LongUnaryOperator.identity() : member::process;
        this.rateLimiter = new RateLimiter(options.rate());
        this.noOpenWriters = key -> this.recorder.openWriters(key) == 0;
    }

    /**
     * The generation of keys a fleet member writes: the seconds of its recorder's clock, so the
     * history's agents, whose clocks agree within the clock uncertainty, write the same keys at
     * the same time ({@code KeyPool#sharedByTime}). A member that resumes a spool starts one
     * generation later than its clock says: the run before may have written the current keys,
     * and this run's values would number from 1 again.
     */
    private static LongSupplier keyGenerations(HistoryRecorder recorder) {
        long floor = generation(recorder.now()) + (recorder.continuesEarlierEvents() ? 1 : 0);
        return () -> Math.max(floor, generation(recorder.now()));
    }

    private static long generation(long nanos) {
        return Math.floorDiv(nanos, KEY_GENERATION_NANOS);
    }

    /**
     * Calls {@code callback} every {@code interval} while running (from a separate thread), and
     * once more at the end. {@code backlog} (may be null) supplies the unshipped event count.
     */
    public WorkloadRunner onProgress(Consumer<WorkloadProgress> callback, Duration interval, LongSupplier backlog) {
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("progress interval must be positive, got " + interval);
        }
        this.progress = Objects.requireNonNull(callback, "callback");
        this.progressInterval = interval;
        this.backlog = backlog;
        return this;
    }

    /**
     * Numbers processes from {@code first} (worker {@code w} starts as {@code first + w}); 0 by
     * default. In a shared history, {@code first} is the member's own number, mapped as the class
     * comment says. An agent continuing an earlier run's history starts past every process that run
     * used, so that no process invokes again after an {@code info}.
     */
    public WorkloadRunner firstProcess(long first) {
        if (first < 0) {
            throw new IllegalArgumentException("first process id must be >= 0, got " + first);
        }
        this.firstProcess = first;
        return this;
    }

    /** Asks the workers to finish their current transaction and stop. */
    public void stop() {
        stopping = true;
    }

    /**
     * Runs the workload on new threads and waits for it to end.
     *
     * @throws IllegalStateException when run twice, or wrapping the failure that stopped a worker
     * @throws InterruptedException  when the calling thread is interrupted (the workers are stopped first)
     */
    public WorkloadResult run() throws InterruptedException {
        if (started) {
            throw new IllegalStateException("a WorkloadRunner runs once; create another for a new run");
        }
        started = true;
        long start = System.nanoTime();
        long deadline = options.duration().isZero() ? Long.MAX_VALUE : start + options.duration().toNanos();
        AtomicLong processes = new AtomicLong(options.concurrency());
        CountDownLatch lastTransactionsDone = new CountDownLatch(options.concurrency());
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < options.concurrency(); w++) {
            int worker = w;
            Thread t = new Thread(() -> work(worker, deadline, processes, lastTransactionsDone), "isowatch-worker-" + w);
            t.setDaemon(true);
            workers.add(t);
        }
        Thread reporter = new Thread(() -> report(start), "isowatch-progress");
        reporter.setDaemon(true);
        workers.forEach(Thread::start);
        reporter.start();
        try {
            for (Thread t : workers) {
                t.join();
            }
        } catch (InterruptedException e) {
            abandoned = true;
            stopping = true;
            for (Thread t : workers) {
                t.join();
            }
            throw e;
        } finally {
            reporter.interrupt();
            reporter.join();
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        progress.accept(snapshot(elapsed, 0, 0, true));
        Throwable error = failure.get();
        if (error != null) {
            // An Error from inside a driver (e.g. HSQLDB's StackOverflowError) has no message; its class says what it was.
            String why = error.getMessage() != null ? error.getMessage() : error.toString();
            throw new IllegalStateException("workload stopped: " + why, error);
        }
        long o = ok.sum();
        long f = fail.sum();
        long i = info.sum();
        return new WorkloadResult(o + f + i, o, f, i, processes.get(), elapsed, closingReads.sum());
    }

    private void work(int worker, long deadline, AtomicLong processes, CountDownLatch lastTransactionsDone) {
        Worker w = new Worker(worker, processes);
        boolean counted = false;
        try {
            w.open();
            while (!stopping) {
                rateLimiter.acquire();
                if (stopping || System.nanoTime() >= deadline) {
                    break;
                }
                long key = options.closingReads() ? generator.takeRetired(noOpenWriters) : -1;
                if (key >= 0) {
                    w.closingRead(key);
                } else if (!claim()) {
                    break;
                } else if (!runOne(w.process, w.client)) {
                    w.next();
                }
            }
            lastTransactionsDone.countDown();
            counted = true;
            if (options.closingReads()) {
                lastTransactionsDone.await();
                for (long key = generator.takeAtEnd(); key >= 0 && !abandoned; key = generator.takeAtEnd()) {
                    w.closingRead(key);
                }
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
            abandoned = true;
            stopping = true;
        } finally {
            if (!counted) {
                lastTransactionsDone.countDown();
            }
            w.close();
        }
    }

    /** One worker thread's current process and client; a new pair after each info. */
    private final class Worker {
        private final int index;
        private final AtomicLong processes;
        /** The worker's own process number; {@link #process} is the one recorded. */
        long local;
        long process;
        DatabaseClient client;

        Worker(int index, AtomicLong processes) {
            this.index = index;
            this.processes = processes;
            this.local = firstProcess + index;
            this.process = processIds.applyAsLong(local);
        }

        void open() {
            client = clients.open(index, process);
        }

        /** The process got info: it is done; continue as a new one with a fresh client. */
        void next() {
            client.close();
            client = null;
            local += options.concurrency();
            process = processIds.applyAsLong(local);
            processes.incrementAndGet();
            open();
        }

        /** Runs and records the closing read of {@code key} ({@link HistoryRecorder#retireKey}). */
        void closingRead(long key) throws InterruptedException {
            DatabaseClient c = client;
            long p = process;
            OpType outcome = recorder.retireKey(p, key, k -> readOne(p, c, k));
            closingReads.increment();
            count(outcome);
            if (outcome == OpType.INFO) {
                next();
            }
        }

        void close() {
            if (client != null) {
                client.close();
            }
        }
    }

    /** A closing read through the client: a read-only transaction of one read; a client's bug counts as unknown. */
    private long[] readOne(long process, DatabaseClient client, long key)
            throws DefinitelyAbortedException, IndeterminateException {
        try {
            return ((MicroOp.Read) client.execute(List.of(new MicroOp.Read(key, null))).get(0)).values();
        } catch (RuntimeException e) {
            if (clientErrors.incrementAndGet() <= LOGGED_CLIENT_ERRORS) {
                LOG.warn("client of process {} threw {}; recorded as info (outcome unknown)", process, e.toString(), e);
            }
            throw new IndeterminateException("client threw " + e, e);
        }
    }

    private void count(OpType outcome) {
        switch (outcome) {
            case OK -> ok.increment();
            case FAIL -> fail.increment();
            case INFO -> info.increment();
            default -> throw new IllegalStateException("not a completion: " + outcome);
        }
    }

    /** Claims one transaction against the limit. */
    private boolean claim() {
        return options.txnLimit() == 0 || invoked.incrementAndGet() <= options.txnLimit();
    }

    /** Runs and records one transaction; false when its outcome is unknown (the process is done). */
    private boolean runOne(long process, DatabaseClient client) {
        List<MicroOp> txn;
        synchronized (generator) {
            // Atomic with generation, so the recorder knows every writer of a key the generator
            // retired before any worker can ask whether the key is due its closing read.
            txn = generator.next();
            recorder.invoke(process, txn);
        }
        try {
            List<MicroOp> completed = client.execute(txn);
            recorder.ok(process, completed);
            ok.increment();
            return true;
        } catch (DefinitelyAbortedException e) {
            recorder.fail(process);
            fail.increment();
            return true;
        } catch (IndeterminateException e) {
            recorder.info(process);
            info.increment();
            return false;
        } catch (RuntimeException e) {
            recorder.info(process);
            info.increment();
            if (clientErrors.incrementAndGet() <= LOGGED_CLIENT_ERRORS) {
                LOG.warn("client of process {} threw {}; recorded as info (outcome unknown)", process, e.toString(), e);
            }
            return false;
        }
    }

    private void report(long start) {
        long lastTxns = 0;
        long lastAt = start;
        long every = progressInterval.toNanos();
        long next = start + every;
        try {
            while (!Thread.currentThread().isInterrupted()) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                long now = System.nanoTime();
                WorkloadProgress p = snapshot(Duration.ofNanos(now - start), lastTxns, now - lastAt, false);
                lastTxns = p.txns();
                lastAt = now;
                next += every;
                progress.accept(p);
            }
        } catch (InterruptedException e) {
            // The run is over.
        } catch (RuntimeException e) {
            LOG.warn("progress callback failed; no more progress reports", e);
        }
    }

    private WorkloadProgress snapshot(Duration elapsed, long previousTxns, long intervalNanos, boolean finished) {
        long o = ok.sum();
        long f = fail.sum();
        long i = info.sum();
        long txns = o + f + i;
        double rate = intervalNanos > 0 ? (txns - previousTxns) * 1e9 / intervalNanos
                : txns * 1e9 / Math.max(1, elapsed.toNanos());
        long b = backlog == null ? -1 : backlog.getAsLong();
        return new WorkloadProgress(elapsed, txns, o, f, i, rate, b, finished);
    }
}
