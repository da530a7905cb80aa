package io.isowatch.agent.client.jdbc;

import io.isowatch.agent.workload.WorkloadProgress;
import io.isowatch.agent.workload.WorkloadRunner;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Watches a contended run for a hang inside the engine. A client waiting for a lock the engine
 * never grants sees neither the workload's deadline nor {@link JdbcHistories#RUN_LIMIT}, so once
 * no transaction has committed for {@link #STALL}, the watch asks the engine's {@link Breaker} to
 * end the waits: the clients see errors, roll back and record {@code fail}, a legitimate outcome
 * that the run's report lists line by line. After {@link #ROUNDS} such calls with no commit in
 * between, it declares the run hung ({@link #hung()}), with what the breaker did and the worker
 * threads' stacks, so that the test fails at once instead of at the limit. Commits, not
 * completions, count as progress, since every wait the breaker ends completes a transaction as
 * {@code fail}. Without a breaker the watch only holds the runner, to stop it when the test gives up.
 *
 * <p>Thread-safe: the runner's progress thread reports to it, its own daemon thread acts.
 */
final class StallWatch implements AutoCloseable {

    /**
     * How long a run may go without a commit before the breaker is called. The contended runs
     * commit thousands of transactions per second, so 5 s without one is a hang, not contention;
     * a call that comes too early only aborts transactions that were waiting.
     */
    static final Duration STALL = Duration.ofSeconds(5);

    /** Breaker calls without a commit in between, after which the run is hung. */
    static final int ROUNDS = 3;

    private static final String WORKER_THREAD = "isowatch-worker-";

    /** An engine's way to end its clients' waits from outside, as errors they see. */
    interface Breaker {
        /**
         * Ends the statements of clients blocked inside the engine, so that each fails (the
         * client then rolls back); returns one line for the report saying what it did and what
         * it could not end.
         */
        String endWaits() throws SQLException;
    }

    private final String name;
    private final Breaker breaker;
    private final CompletableFuture<String> hung = new CompletableFuture<>();
    private final List<String> actions = new CopyOnWriteArrayList<>();
    private volatile long committed;
    private volatile long lastProgress = System.nanoTime();
    private volatile boolean closed;
    private volatile WorkloadRunner runner;

    /** @param breaker the engine's breaker, or null to watch nothing */
    StallWatch(String name, Breaker breaker) {
        this.name = name;
        this.breaker = breaker;
    }

    /** Follows {@code r}'s progress (call before {@link WorkloadRunner#run()}). */
    void watch(WorkloadRunner r) {
        runner = r;
        if (breaker == null) {
            return;
        }
        lastProgress = System.nanoTime();
        r.onProgress(this::progress, Duration.ofSeconds(1), null);
        Thread t = new Thread(this::loop, "stall-watch-" + name);
        t.setDaemon(true);
        t.start();
    }

    /** Completes with a description of the hang when the run is declared hung; never otherwise. */
    CompletableFuture<String> hung() {
        return hung;
    }

    /** What the breaker did, one line per call, for the run's report. */
    List<String> actions() {
        return List.copyOf(actions);
    }

    /** Asks the run to stop; its clients that are still inside the engine stay there. */
    void stopRun() {
        WorkloadRunner r = runner;
        if (r != null) {
            r.stop();
        }
    }

    @Override
    public void close() {
        closed = true;
    }

    private void progress(WorkloadProgress p) {
        if (p.ok() != committed) {
            committed = p.ok();
            lastProgress = System.nanoTime();
        }
    }

    private void loop() {
        int fruitless = 0;
        long seen = -1;
        try {
            while (!closed) {
                Thread.sleep(250);
                long idle = System.nanoTime() - lastProgress;
                if (closed || idle < STALL.toNanos()) {
                    continue;
                }
                fruitless = committed == seen ? fruitless + 1 : 1;
                seen = committed;
                String what;
                try {
                    what = breaker.endWaits();
                } catch (SQLException | RuntimeException e) {
                    what = "breaker failed: " + e;
                }
                actions.add(String.format(Locale.ROOT, "after %.1f s without a commit (%,d so far): %s",
                        idle / 1e9, seen, what));
                lastProgress = System.nanoTime(); // the next call only after another STALL
                if (fruitless >= ROUNDS) {
                    hung.complete(ROUNDS + " attempts to end the waits inside the engine, " + STALL.toSeconds()
                            + " s apart, let no transaction commit:\n  " + String.join("\n  ", actions)
                            + "\n" + workerStacks());
                    stopRun();
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The stacks of this JVM's workload threads, identical ones counted once, for a hang's message. */
    static String workerStacks() {
        Map<String, Integer> stacks = new TreeMap<>();
        Thread.getAllStackTraces().forEach((t, frames) -> {
            if (t.getName().startsWith(WORKER_THREAD)) {
                String top = Arrays.stream(frames).limit(12).map(f -> "      at " + f).collect(Collectors.joining("\n"));
                stacks.merge(t.getState() + "\n" + top, 1, Integer::sum);
            }
        });
        StringBuilder b = new StringBuilder("workload threads (" + WORKER_THREAD + "*) in this JVM:\n");
        stacks.forEach((stack, n) -> b.append("  ").append(n).append(" x ").append(stack).append('\n'));
        return b.toString();
    }
}
