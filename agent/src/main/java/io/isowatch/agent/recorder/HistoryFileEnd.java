package io.isowatch.agent.recorder;

import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryFormatException;
import io.isowatch.history.codec.HistoryReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The last op of a JSON-lines history file that an agent wrote and may have died writing: its
 * index and its exact line, so that a restarted agent can append what its spool holds after it.
 * A torn last line (the buffered writer's tail cut by SIGKILL) is cut off the file, since its op
 * is whole in the spool and is written again.
 *
 * @param index the last whole line's op index, or -1 when the file has no whole line (or none)
 * @param line  that line's bytes without the newline; empty when {@code index} is -1
 * @param cut   bytes of a torn last line removed from the file
 */
public record HistoryFileEnd(long index, byte[] line, long cut) {

    private static final int CHUNK = 1 << 16;

    /** No whole line: a new, empty or wholly torn file. */
    public boolean empty() {
        return index < 0;
    }

    /**
     * Reads the end of {@code file}, first cutting off a torn last line; a missing file has no end.
     *
     * @throws UncheckedIOException     when the file cannot be read or truncated
     * @throws IllegalArgumentException when the last whole line is not a Jepsen op with an index
     */
    public static HistoryFileEnd read(Path file) {
        if (!Files.exists(file)) {
            return new HistoryFileEnd(-1, new byte[0], 0);
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            long lastNewline = lastIndexOf(ch, size);
            long cut = size - (lastNewline + 1);
            if (cut > 0) {
                ch.truncate(lastNewline + 1);
                ch.force(true);
            }
            if (lastNewline < 0) {
                return new HistoryFileEnd(-1, new byte[0], cut);
            }
            long start = lastIndexOf(ch, lastNewline) + 1;
            byte[] line = new byte[(int) (lastNewline - start)];
            ByteBuffer buffer = ByteBuffer.wrap(line);
            while (buffer.hasRemaining()) {
                ch.read(buffer, start + buffer.position());
            }
            return new HistoryFileEnd(indexOf(file, line), line, cut);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the end of the history file " + file + ": " + e.getMessage(),
                    e);
        }
    }

    /** The position of the last newline before {@code end}, or -1. Reads backwards in chunks. */
    private static long lastIndexOf(FileChannel ch, long end) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
        long to = end;
        while (to > 0) {
            long from = Math.max(0, to - CHUNK);
            chunk.clear().limit((int) (to - from));
            while (chunk.hasRemaining()) {
                if (ch.read(chunk, from + chunk.position()) < 0) {
                    break;
                }
            }
            for (int i = chunk.position() - 1; i >= 0; i--) {
                if (chunk.get(i) == '\n') {
                    return from + i;
                }
            }
            to = from;
        }
        return -1;
    }

    private static long indexOf(Path file, byte[] line) {
        Op op;
        try (HistoryReader reader = HistoryReader.ofJson(file.toString(), line, new AtomTable())) {
            op = reader.next();
        } catch (HistoryFormatException | IllegalArgumentException e) {
            op = null;
        }
        if (op == null) {
            String shown = new String(line, 0, Math.min(line.length, 80), StandardCharsets.UTF_8);
            throw new IllegalArgumentException("the history file " + file + " does not end in a Jepsen op line (it ends"
                    + " in \"" + shown + "\"); give a new --history-out, or delete the file to have it written"
                    + " from the spool");
        }
        return op.index();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HistoryFileEnd e && e.index == index && e.cut == cut && Arrays.equals(e.line, line);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(index) * 31 + Arrays.hashCode(line);
    }

    @Override
    public String toString() {
        return "HistoryFileEnd[index=" + index + ", cut=" + cut + "]";
    }
}
