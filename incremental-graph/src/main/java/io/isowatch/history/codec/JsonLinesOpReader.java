package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Reads JSON input line by line: each line goes to {@link JsonLineScanner}, and a line the
 * scanner is unsure of goes to the general {@link JsonOpReader} on its own, sharing one
 * {@link OpBuilder}, so both ways apply the same rules and count ops alike. When a line is not a
 * whole JSON text by itself (an op map spread over several lines, a root-level array, a lone
 * carriage return that the general reader counts as a line break), the general reader takes
 * over for the rest of the input. Whatever the input, the ops and the errors, with their lines,
 * are those the general reader alone would give; reading is about 2.5 times as fast once warm
 * (docs/benchmarks-archive.md, issue 15).
 *
 * <p>Memory is one buffer, as long as the longest line. Not thread-safe.
 */
final class JsonLinesOpReader implements OpSource {

    private static final int BUFFER_SIZE = 1 << 16;
    private static final byte[] LINE_BREAK = {'\n'};

    private final String sourceName;
    private final InputStream in;
    private final OpBuilder ops;
    private final ShippedIdentity identity;
    private final JsonLineScanner scanner;

    private byte[] buffer;
    private int position;
    private int limit;
    private boolean endOfInput;
    private int lineStart;
    /** Lines read so far; the current line's number once it has been taken. */
    private long line;
    /** Whether a line with something other than whitespace has been read. */
    private boolean valueSeen;

    /**
     * Ops the general reader found on one line, still to hand out; made on first use (a Kafka
     * record, read with the shipper's fields, never buffers a line).
     */
    private ArrayDeque<Op> lineOps;
    /** The general reader over the rest of the input, once it has taken over. */
    private JsonOpReader rest;

    JsonLinesOpReader(String sourceName, InputStream in, AtomTable atoms) {
        this(sourceName, in, atoms, null);
        buffer = new byte[BUFFER_SIZE];
    }

    /**
     * Reads JSON held in memory, in place (the array is read, never written), handing each op
     * map's shipper fields to {@code identity} when it is not null: a Kafka record's value.
     */
    JsonLinesOpReader(String sourceName, byte[] json, AtomTable atoms, ShippedIdentity identity) {
        this(sourceName, InputStream.nullInputStream(), atoms, identity);
        buffer = json;
        limit = json.length;
        endOfInput = true;
    }

    private JsonLinesOpReader(String sourceName, InputStream in, AtomTable atoms, ShippedIdentity identity) {
        this.sourceName = sourceName;
        this.in = in;
        this.identity = identity;
        this.ops = new OpBuilder(sourceName, atoms);
        this.scanner = new JsonLineScanner(ops, identity);
    }

    @Override
    public Op next() {
        while (rest == null) {
            if (lineOps != null && !lineOps.isEmpty()) {
                return lineOps.poll();
            }
            if (position < limit) {
                int lineEnd = scanner.scanToLineEnd(buffer, position, limit, endOfInput, line + 1);
                if (lineEnd >= 0) {
                    lineStart = position;
                    position = lineEnd < limit ? lineEnd + 1 : limit;
                    line++;
                    valueSeen = true;
                    Op op = ops.finish();
                    if (op != null) {
                        return op;
                    }
                    continue;
                }
            }
            int end = nextLine();
            if (end < 0) {
                return null;
            }
            int start = lineStart;
            switch (scanner.scan(buffer, start, end, line)) {
                case JsonLineScanner.BLANK -> {
                }
                case JsonLineScanner.OP -> {
                    valueSeen = true;
                    Op op = ops.finish();
                    if (op != null) {
                        return op;
                    }
                }
                default -> readAlone(start, end);
            }
        }
        return rest.next();
    }

    /**
     * Lets the general reader decode the line {@code [start, end)} by itself, or, when it is
     * not a whole JSON text, the rest of the input from its start.
     */
    private void readAlone(int start, int end) {
        int first = start;
        while (first < end && (buffer[first] == ' ' || buffer[first] == '\t')) {
            first++;
        }
        // With the shipper's fields wanted, each op must be handed out before the next is read (the
        // fields describe the op read last), so the general reader goes on without buffering a line.
        if (identity != null || first == end || buffer[first] != '{' || hasLoneCarriageReturn(start, end)) {
            takeOverFrom(start);
            return;
        }
        long finishedBefore = ops.finished();
        long skippedBefore = ops.skipped();
        JsonOpReader alone = new JsonOpReader(sourceName, new ByteArrayInputStream(buffer, start, end - start),
                ops, identity, line - 1, true);
        if (lineOps == null) {
            lineOps = new ArrayDeque<>();
        }
        try {
            for (Op op = alone.next(); op != null; op = alone.next()) {
                lineOps.add(op);
            }
            valueSeen = true;
        } catch (HistoryFormatException e) {
            // Either the line ends inside a value that goes on over the next lines, or the input
            // is wrong here. The general reader over the rest tells which, and words the error
            // with the context only it has (the whole value, the right line and column).
            lineOps.clear();
            ops.rewind(finishedBefore, skippedBefore);
            takeOverFrom(start);
        } finally {
            alone.close();
        }
    }

    private boolean hasLoneCarriageReturn(int start, int end) {
        for (int i = start; i < end - 1; i++) {
            if (buffer[i] == '\r') {
                return true;
            }
        }
        return false;
    }

    private void takeOverFrom(int start) {
        InputStream remaining = new SequenceInputStream(new ByteArrayInputStream(buffer, start, limit - start), in);
        long lineBase = line - 1;
        if (line > 1) {
            // Jackson skips a byte-order mark only at the very start of its input: past line 1, it
            // starts on a line break, so that it reads this line as the reader of the whole input would.
            remaining = new SequenceInputStream(new ByteArrayInputStream(LINE_BREAK), remaining);
            lineBase--;
        }
        rest = new JsonOpReader(sourceName, remaining, ops, identity, lineBase, valueSeen);
    }

    /**
     * Takes the next line: returns the end of its bytes (its {@code \n}, or the end of input),
     * with {@link #lineStart} at its start and {@link #line} counting it; -1 at the end of input.
     */
    private int nextLine() {
        int from = position;
        while (true) {
            for (int i = from; i < limit; i++) {
                if (buffer[i] == '\n') {
                    lineStart = position;
                    position = i + 1;
                    line++;
                    return i;
                }
            }
            if (endOfInput) {
                if (position == limit) {
                    return -1;
                }
                lineStart = position;
                position = limit;
                line++;
                return limit;
            }
            from = limit - position;
            fill();
        }
    }

    /** Moves the unread bytes to the front, growing the buffer for a long line, and reads more. */
    private void fill() {
        int unread = limit - position;
        if (unread == buffer.length) {
            buffer = Arrays.copyOf(buffer, buffer.length * 2);
        } else if (position > 0) {
            System.arraycopy(buffer, position, buffer, 0, unread);
        }
        position = 0;
        limit = unread;
        try {
            int n = in.read(buffer, limit, buffer.length - limit);
            if (n < 0) {
                endOfInput = true;
            } else {
                limit += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(sourceName + ": cannot read: " + e.getMessage(), e);
        }
    }

    @Override
    public long skipped() {
        return ops.skipped();
    }

    @Override
    public void close() {
        try {
            if (rest != null) {
                rest.close();
            }
            in.close();
        } catch (IOException e) {
            throw new UncheckedIOException(sourceName + ": cannot close: " + e.getMessage(), e);
        }
    }
}
