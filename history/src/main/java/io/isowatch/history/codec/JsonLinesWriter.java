package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Writes ops as Jepsen JSON lines, one op object per line, in UTF-8:
 * {@code {"index":0,"time":12,"type":"invoke","process":0,"f":"txn","value":[["append",5,1],["r",6,null]]}}.
 *
 * <p>Each line is {@link HistoryEventJson}'s rendering of the op, the one JSON writer of ops:
 * fields in the order index, time, type, process, f, value; {@code time} left out when it is -1
 * (unknown); integers bare, strings quoted. A read's values are always written as a list (or
 * {@code null} when unknown), so a register read of one value comes back from
 * {@link HistoryReader} as the same {@link MicroOp.Read}. Output is buffered; nothing reaches the
 * stream before the buffer fills or {@link #flush()} is called. Not thread-safe. I/O failures
 * surface as {@link UncheckedIOException}.
 */
public final class JsonLinesWriter implements Closeable, Flushable {

    private final OutputStream out;
    private final AtomTable atoms;
    private final HistoryEventJson json = new HistoryEventJson();
    private long opsWritten;

    /** Writes to a stream, which the writer then owns and closes. */
    public JsonLinesWriter(OutputStream out, AtomTable atoms) {
        this.out = new BufferedOutputStream(Objects.requireNonNull(out, "out"), 1 << 16);
        this.atoms = Objects.requireNonNull(atoms, "atoms");
    }

    /** Creates (or truncates) a file and writes to it. */
    public static JsonLinesWriter open(Path file, AtomTable atoms) {
        try {
            return new JsonLinesWriter(Files.newOutputStream(file), atoms);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Appends one op as a line.
     *
     * @throws IllegalArgumentException when a key or value is a string atom this writer's table
     *                                  does not know
     */
    public void write(Op op) {
        try {
            json.writeLine(op, atoms, out);
            opsWritten++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write op " + op.index() + ": " + e.getMessage(), e);
        }
    }

    /** The number of ops written so far. */
    public long opsWritten() {
        return opsWritten;
    }

    @Override
    public void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot flush JSON lines: " + e.getMessage(), e);
        }
    }

    /** Flushes and closes the underlying stream. */
    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close JSON lines: " + e.getMessage(), e);
        }
    }
}
