package io.isowatch.cli;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.HistoryViolationException;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AgentMerge;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryFormatException;
import io.isowatch.history.codec.HistoryReader;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Checks several files as one history recorded by several agents, one file per agent (decision
 * 0021): merged by {@link AgentMerge}, checked by a fleet checker with the given clock
 * uncertainty. An agent is named by its file's name (by the path given, should two names repeat).
 *
 * <p>The files are read on the checking thread, lazily, one event per file ahead: the readers
 * share one atom table, which is not thread-safe, so {@link OpPipe}'s parsing thread is not used.
 */
final class FleetCheck {

    /** A failure of the history read from {@code file}: its message says where in it. */
    static final class AgentFailure extends RuntimeException {
        final Path file;

        AgentFailure(Path file, RuntimeException cause) {
            super(cause.getMessage(), cause);
            this.file = file;
        }
    }

    private static final long PROGRESS_NANOS = 2_000_000_000L;

    private final CheckerOptions options;
    private final Duration clockUncertainty;
    private final PrintWriter progress;

    FleetCheck(CheckerOptions options, Duration clockUncertainty, PrintWriter progress) {
        this.options = options;
        this.clockUncertainty = clockUncertainty;
        this.progress = progress;
    }

    /** The agents' ids for {@code files}: file names, or the paths as given when two names repeat. */
    static List<String> agentIds(List<Path> files) {
        Set<String> names = new HashSet<>();
        boolean repeated = false;
        for (Path f : files) {
            repeated |= !names.add(f.getFileName().toString());
        }
        List<String> ids = new ArrayList<>();
        for (Path f : files) {
            ids.add(repeated ? f.toString() : f.getFileName().toString());
        }
        return ids;
    }

    /**
     * Checks {@code files} as one history. Bad input ends the check with an {@link AgentFailure}
     * naming the file, or a {@link HistoryViolationException} of the merged history; anything else
     * thrown is a bug, rethrown as a {@link CheckFailure}.
     */
    HistoryCheck.Result run(List<Path> files, String label) {
        long start = System.nanoTime();
        AtomTable atoms = new AtomTable();
        IncrementalChecker checker = new IncrementalChecker(options, atoms);
        List<String> ids = agentIds(files);
        checker.checkAsFleet(clockUncertainty, ids);
        Progress meter = new Progress(progress, label,
                String.join(", ", ConsistencyModel.names(options.consistencyModels())), start, PROGRESS_NANOS);
        List<HistoryReader> readers = new ArrayList<>();
        List<Iterator<Op>> streams = new ArrayList<>();
        Op last = null;
        int lastAgent = -1;
        try {
            for (Path f : files) {
                HistoryReader r = HistoryReader.open(f, atoms);
                readers.add(r);
                streams.add(new Events(r, f));
            }
            AgentMerge merge = AgentMerge.merge(ids, streams);
            long n = 0;
            while (merge.hasNext()) {
                AgentMerge.Merged m = merge.next();
                last = m.op();
                lastAgent = m.agent();
                checker.accept(m.op(), m.agent());
                if ((++n & 0xFFFF) == 0) {
                    meter.update(checker.events(), checker.transactions(), checker.findingCount(),
                            checker.forbiddenFindings());
                }
            }
            long leftOut = 0;
            for (HistoryReader r : readers) {
                leftOut += r.opsSkipped();
            }
            last = null;
            checker.leftOut(leftOut, OpPipe.LEFT_OUT_WHY);
            Verdict verdict = checker.finish();
            meter.done();
            return new HistoryCheck.Result(verdict, atoms, (System.nanoTime() - start) / 1e9, leftOut);
        } catch (AgentFailure | UncheckedIOException | OutOfMemoryError e) {
            throw e;
        } catch (HistoryViolationException e) {
            // Its line is the agent's file's; its index is the merged history's.
            throw new AgentFailure(files.get(lastAgent), e);
        } catch (RuntimeException | Error e) {
            throw new CheckFailure(HistoryCheck.where(true, last)
                    + (lastAgent >= 0 ? " of " + files.get(lastAgent) : ""), e);
        } finally {
            readers.forEach(HistoryReader::close);
        }
    }

    /** One agent's events, read as the merge asks for them. */
    private static final class Events implements Iterator<Op> {
        private final HistoryReader reader;
        private final Path file;
        private Op next;
        private boolean read;

        Events(HistoryReader reader, Path file) {
            this.reader = reader;
            this.file = file;
        }

        @Override
        public boolean hasNext() {
            if (!read) {
                try {
                    next = reader.next();
                } catch (HistoryFormatException e) {
                    throw new AgentFailure(file, e);
                }
                read = true;
            }
            return next != null;
        }

        @Override
        public Op next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            read = false;
            return next;
        }
    }
}
