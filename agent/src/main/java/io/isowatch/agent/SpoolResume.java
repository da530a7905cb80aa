package io.isowatch.agent;

import io.isowatch.agent.recorder.HistoryFileEnd;
import io.isowatch.agent.transport.ChronicleHistoryLog;
import io.isowatch.agent.transport.CorruptRecordException;
import io.isowatch.agent.transport.SpoolScan;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.codec.JsonLinesWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * What an agent does with its spool before it records anything: one pass over the spool
 * ({@link SpoolScan}) that sets corrupt records aside, finds the transactions an earlier run left
 * open and where numbering continues, and completes the {@code --history-out} file with every
 * event the spool holds beyond the file's last whole line.
 *
 * <p><b>Why complete at start rather than flush per event.</b> The history file is buffered, so
 * SIGKILL loses its tail; the spool, written first, holds every event. Flushing each completion
 * would put a write system call on the recorder's hot path for every transaction; writing the
 * missing tail once, when the agent starts again on the spool, costs nothing while recording and
 * about a second per few million spooled events at start. A file that is never resumed keeps its
 * lost tail, which {@code isowatch agent export} writes from the spool.
 *
 * <p>A clean stop leaves a {@link CleanStop} mark, and the restart after it skips the pass when
 * the mark still holds: only a crash costs a read of the spool.
 *
 * <p>The file must be this spool's history: its last whole line must be, byte for byte, the line
 * of the spool's event of that index (or the file new or empty). Anything else is refused with
 * the fix, rather than appended to.
 */
final class SpoolResume {

    private SpoolResume() {
    }

    /**
     * The pass's findings.
     *
     * @param log        the spool read
     * @param historyOut the history file completed, or null
     * @param spool      what the spool holds
     * @param copied     events written to the history file
     * @param end        the history file's end before completion, or null without one
     * @param read       whether the spool was read; if not (after a clean stop), {@code spool} holds
     *                   only its last event and largest process, and nothing open
     */
    record Result(ChronicleHistoryLog log, Path historyOut, SpoolScan.Summary spool, long copied,
                  HistoryFileEnd end, boolean read) {

        /** Tells the operator what reading the spool found and did to the history file, one line each. */
        void reportRead(Consumer<String> notices) {
            if (spool.corrupt() > 0) {
                notices.accept(String.format(Locale.ROOT, "the spool %s holds %,d record(s) that cannot be decoded;"
                        + " they are set aside in %s and skipped", log.directory(), spool.corrupt(),
                        log.quarantineFile()));
            }
            if (end != null && !end.empty() && (copied > 0 || end.cut() > 0)) {
                notices.accept(String.format(Locale.ROOT, "the history file %s ended at index %d%s; completed it"
                        + " from the spool with %,d event(s)", historyOut, end.index(),
                        end.cut() > 0 ? " and a torn line of " + end.cut() + " bytes (cut off)" : "", copied));
            } else if (end != null && end.empty() && spool.first() != null && spool.first().sequence() > 0) {
                notices.accept(String.format(Locale.ROOT, "the history file %s starts at index %d: the spool's"
                        + " earlier events were shipped and their roll files deleted", historyOut,
                        spool.first().sequence()));
            }
        }

        /** Tells the operator that the transactions left open were completed as info. */
        void reportCompleted(Consumer<String> notices) {
            if (spool.open().isEmpty()) {
                return;
            }
            String processes = spool.open().keySet().stream().limit(10).map(String::valueOf)
                    .collect(Collectors.joining(", "));
            notices.accept(String.format(Locale.ROOT, "%,d transaction(s) were open when the agent last stopped"
                    + " (processes %s%s); recorded them as info (outcome unknown) and retired those processes",
                    spool.open().size(), processes, spool.open().size() > 10 ? ", …" : ""));
        }
    }

    /**
     * Reads {@code spool} and, with a {@code historyOut}, completes that file from it. After a
     * clean stop ({@code mark} given, the spool still ending where it did, the history file ending
     * with the spool's last event) nothing is open and nothing missing, and the spool is not read.
     *
     * @param mark the mark the last run left at a clean stop, or null
     * @throws IllegalArgumentException when the file is not this spool's history, naming the fix
     * @throws UncheckedIOException     when the file cannot be read or written
     */
    static Result run(ChronicleHistoryLog spool, Path historyOut, CleanStop mark) {
        Result clean = afterCleanStop(spool, historyOut, mark);
        return clean != null ? clean : read(spool, historyOut);
    }

    /** The result without reading the spool, or null when a clean stop cannot vouch for it. */
    private static Result afterCleanStop(ChronicleHistoryLog spool, Path historyOut, CleanStop mark) {
        long lastIndex = spool.lastIndex();
        if (mark == null || mark.lastIndex() != lastIndex || lastIndex == ChronicleHistoryLog.NO_INDEX) {
            return null;
        }
        HistoryEvent last;
        try {
            last = spool.lastEvent();
        } catch (CorruptRecordException e) {
            return null;
        }
        HistoryFileEnd end = null;
        if (historyOut != null) {
            end = HistoryFileEnd.read(historyOut);
            if (end.index() != last.sequence() || !Arrays.equals(lineOf(last, spool), end.line())) {
                return null;
            }
        }
        // Only what a restart needs is known: the last event, the processes, nothing open.
        return new Result(spool, historyOut, new SpoolScan.Summary(null, last, 0, 0, mark.maxProcess(), Map.of()), 0,
                end, false);
    }

    private static Result read(ChronicleHistoryLog spool, Path historyOut) {
        if (historyOut == null) {
            return new Result(spool, null, SpoolScan.read(spool, e -> { }, spool::quarantine), 0, null, true);
        }
        HistoryFileEnd end = HistoryFileEnd.read(historyOut);
        Completion completion = new Completion(spool, historyOut, end);
        SpoolScan.Summary summary;
        try {
            summary = SpoolScan.read(spool, completion::accept, spool::quarantine);
        } finally {
            completion.close();
        }
        if (!end.empty() && !completion.matched) {
            if (summary.events() == 0) {
                truncate(historyOut); // a new spool starts a new history, as without one
            } else {
                throw notThisSpool(spool, historyOut, end, summary);
            }
        }
        return new Result(spool, historyOut, summary, completion.copied, end, true);
    }

    /** Writes the spool's events past the file's end; checks the event at the end against the file. */
    private static final class Completion {
        private final ChronicleHistoryLog spool;
        private final Path file;
        private final HistoryFileEnd end;
        private JsonLinesWriter writer;
        private boolean matched;
        private long copied;

        Completion(ChronicleHistoryLog spool, Path file, HistoryFileEnd end) {
            this.spool = spool;
            this.file = file;
            this.end = end;
        }

        void accept(HistoryEvent event) {
            long seq = event.sequence();
            if (!end.empty() && !matched) {
                if (seq < end.index()) {
                    return;
                }
                if (seq > end.index() || !Arrays.equals(lineOf(event, spool), end.line())) {
                    return; // not this spool's history: refused once the pass is over
                }
                matched = true;
                return;
            }
            if (writer == null) {
                writer = new JsonLinesWriter(open(), spool.atoms());
            }
            writer.write(event.op());
            copied++;
        }

        private java.io.OutputStream open() {
            try {
                return end.empty()
                        ? Files.newOutputStream(file)
                        : Files.newOutputStream(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the history file " + file + ": " + e.getMessage(), e);
            }
        }

        void close() {
            if (writer != null) {
                writer.close();
            }
        }
    }

    /** The event's line as the agent writes it, without the newline. */
    private static byte[] lineOf(HistoryEvent event, ChronicleHistoryLog spool) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonLinesWriter w = new JsonLinesWriter(out, spool.atoms())) {
            w.write(event.op());
        }
        byte[] bytes = out.toByteArray();
        return Arrays.copyOf(bytes, bytes.length - 1);
    }

    private static void truncate(Path file) {
        try {
            Files.newOutputStream(file).close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate the history file " + file + ": " + e.getMessage(), e);
        }
    }

    private static IllegalArgumentException notThisSpool(ChronicleHistoryLog spool, Path file, HistoryFileEnd end,
                                                         SpoolScan.Summary summary) {
        long first = summary.first().sequence();
        long last = summary.last().sequence();
        String why = end.index() > last ? "the spool ends at index " + last
                : end.index() < first ? "the spool's oldest event is index " + first
                + " (older roll files were shipped and deleted)"
                : "the spool's event " + end.index() + " is a different op";
        return new IllegalArgumentException("the history file " + file + " ends at index " + end.index() + " ("
                + new String(end.line(), 0, Math.min(end.line().length, 60), StandardCharsets.UTF_8) + "…), but "
                + why + ": it is not the history of the spool in " + spool.directory()
                + "; give a new --history-out, or delete the file to have it written from the spool");
    }
}
