package io.isowatch.cli;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.HistoryViolationException;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryFormatException;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Reads one history file into the incremental checker and reports progress while it runs.
 *
 * <p>Parsing and checking run on two threads ({@link OpPipe}), since each takes about half the
 * time and this machine has two cores. Progress goes to {@code progress} (stderr) every two
 * seconds, only for runs that take that long.
 */
final class HistoryCheck {

    /** What checking a file produced. */
    record Result(Verdict verdict, AtomTable atoms, double seconds, long leftOut) {
    }

    /** What reading a file without checking it found. */
    record Read(long events, double seconds, long leftOut) {
    }

    /**
     * The line that says how many ops a check or a read left out and why, e.g. {@code 8 ops left
     * out: no integer :process}; null when none were.
     */
    static String leftOutLine(long leftOut) {
        return leftOut == 0 ? null : String.format("%,d op%s left out: %s (Elle leaves such ops out too)", leftOut,
                leftOut == 1 ? "" : "s", OpPipe.LEFT_OUT_WHY);
    }

    private static final long PROGRESS_NANOS = 2_000_000_000L;

    private final CheckerOptions options;
    private final PrintWriter progress;

    HistoryCheck(CheckerOptions options, PrintWriter progress) {
        this.options = options;
        this.progress = progress;
    }

    /**
     * Checks {@code file}. Bad input ends the check with the reader's or the checker's own
     * exception, and running out of memory with the {@link OutOfMemoryError}; anything else
     * thrown is a bug, rethrown as a {@link CheckFailure} that names the event being checked.
     */
    Result run(Path file) {
        long start = System.nanoTime();
        AtomTable atoms = new AtomTable();
        IncrementalChecker checker = new IncrementalChecker(options, atoms);
        Progress meter = new Progress(progress, file.toString(),
                String.join(", ", ConsistencyModel.names(options.consistencyModels())), start, PROGRESS_NANOS);
        Op last = null;
        boolean checking = false;
        long leftOut;
        try {
            try (OpPipe pipe = OpPipe.start(file, atoms)) {
                for (Op[] batch = pipe.take(); batch.length > 0; batch = pipe.take()) {
                    checking = true;
                    for (Op op : batch) {
                        last = op;
                        checker.accept(op);
                    }
                    checking = false;
                    meter.update(checker.events(), checker.transactions(), checker.findingCount(),
                            checker.forbiddenFindings());
                }
                leftOut = pipe.leftOut();
            }
            checking = true;
            last = null;
            checker.leftOut(leftOut, OpPipe.LEFT_OUT_WHY);
            Verdict verdict = checker.finish();
            meter.done();
            return new Result(verdict, atoms, (System.nanoTime() - start) / 1e9, leftOut);
        } catch (HistoryFormatException | HistoryViolationException | UncheckedIOException | OutOfMemoryError e) {
            throw e;
        } catch (RuntimeException | Error e) {
            throw new CheckFailure(where(checking, last), e);
        }
    }

    /** Where a check failed: at the event it was taking, after the last one it took, or at the end. */
    static String where(boolean checking, Op last) {
        if (last == null) {
            return checking ? "at the end of the history" : "reading the history";
        }
        String at = last.sourceLine() > 0 ? "line " + last.sourceLine() + " (index " + last.index() + ")"
                : "index " + last.index();
        return checking ? "at " + at : "reading the history after " + at;
    }

    /**
     * Reads every op of {@code file} on the same decoding path as {@link #run}, and checks
     * nothing: how long reading alone takes is the floor under a check's time.
     */
    static Read read(Path file) {
        long start = System.nanoTime();
        long events = 0;
        long leftOut;
        try (OpPipe pipe = OpPipe.start(file, new AtomTable())) {
            for (Op[] batch = pipe.take(); batch.length > 0; batch = pipe.take()) {
                events += batch.length;
            }
            leftOut = pipe.leftOut();
        }
        return new Read(events, (System.nanoTime() - start) / 1e9, leftOut);
    }
}
