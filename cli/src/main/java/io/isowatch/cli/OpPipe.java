package io.isowatch.cli;

import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryReader;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Parses a history file on its own thread and hands the ops over in batches.
 *
 * <p>The atom table is written only by the parsing thread until the end marker (an empty batch)
 * has been taken, and the queue's happens-before edge publishes it to the taker. A parse error
 * is rethrown, unchanged, from {@link #take()} on the taking thread, after every op read before it;
 * so is an error (running out of memory while parsing), which would otherwise end the parsing
 * thread with a stack trace and leave the taker waiting for a batch that never comes.
 */
final class OpPipe implements AutoCloseable {

    /**
     * At most 8 batches of 1,024 ops wait between the threads. The reader is faster than the
     * checker and keeps the queue full, and every young collection copies the ops waiting there:
     * 131,072 of them (4,096 x 32) made a 1M-transaction check's three pauses 200-217 ms in all,
     * 8,192 make them 137-142 ms (docs/benchmarks-archive.md, issue 15).
     */
    private static final int BATCH = 1024;
    private static final int BATCHES_WAITING = 8;
    private static final Op[] END = new Op[0];

    private final BlockingQueue<Op[]> queue = new ArrayBlockingQueue<>(BATCHES_WAITING);
    private final Thread thread;
    /** What ended parsing early: a RuntimeException or an Error. */
    private volatile Throwable failure;
    private volatile boolean closed;
    /** Ops the reader left out (no integer :process); set before the end marker is queued. */
    private volatile long leftOut;

    private OpPipe(Path file, AtomTable atoms) {
        thread = new Thread(() -> parse(file, atoms), "isowatch-parse");
        thread.setDaemon(true);
    }

    static OpPipe start(Path file, AtomTable atoms) {
        OpPipe pipe = new OpPipe(file, atoms);
        pipe.thread.start();
        return pipe;
    }

    private void parse(Path file, AtomTable atoms) {
        Op[] batch = new Op[BATCH];
        int n = 0;
        try (HistoryReader reader = HistoryReader.open(file, atoms)) {
            for (Op op = reader.next(); op != null && !closed; op = reader.next()) {
                batch[n++] = op;
                if (n == BATCH) {
                    queue.put(batch);
                    batch = new Op[BATCH];
                    n = 0;
                }
            }
            leftOut = reader.opsSkipped();
        } catch (RuntimeException | Error e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            // The ops read before a bad line are checked before its error is thrown, so a check
            // stops at the first problem in file order, whichever of the two threads finds it.
            // After an error (out of memory) nothing more is allocated: the end comes at once.
            if (n > 0 && !(failure instanceof Error)) {
                queue.put(Arrays.copyOf(batch, n));
            }
            queue.put(END);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The next batch; an empty one at the end. Throws the parser's exception if it failed. */
    Op[] take() {
        try {
            Op[] batch = queue.take();
            if (batch.length == 0 && failure instanceof Error e) {
                throw e;
            }
            if (batch.length == 0 && failure != null) {
                throw (RuntimeException) failure;
            }
            return batch;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the history", e);
        }
    }

    /**
     * The ops the reader left out because they have no integer {@code :process} (the nemesis, or
     * a history without processes), as Elle leaves them out; complete once {@link #take()} has
     * returned the end.
     */
    long leftOut() {
        return leftOut;
    }

    /** Why {@link #leftOut()} ops were left out, in the words check prints. */
    static final String LEFT_OUT_WHY = "no integer :process";

    @Override
    public void close() {
        closed = true;
        queue.clear();
        thread.interrupt();
    }
}
