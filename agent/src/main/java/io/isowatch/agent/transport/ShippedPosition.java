package io.isowatch.agent.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The shipper's acknowledged spool index, kept in one small text file beside the queue files.
 *
 * <p>A write goes to a temporary file, is forced to disk, and then atomically replaces the
 * previous file (followed by an fsync of the directory), so after a crash the file holds either
 * the old or the new position, never a torn one. The content is two lines: a format line and the
 * Chronicle index in decimal. Used by one thread at a time (the spool serialises calls).
 */
final class ShippedPosition {

    static final String FILE_NAME = "shipped.position";
    private static final String HEADER = "isowatch-shipped-position 1";

    private final Path dir;
    private final Path file;
    private final Path temp;

    ShippedPosition(Path dir) {
        this.dir = dir;
        this.file = dir.resolve(FILE_NAME);
        this.temp = dir.resolve(FILE_NAME + ".tmp");
    }

    Path file() {
        return file;
    }

    /**
     * The stored index, or {@link ChronicleHistoryLog#NO_INDEX} when nothing was acknowledged yet.
     *
     * @throws IllegalStateException when the file exists but is not a position file
     */
    long read() {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return ChronicleHistoryLog.NO_INDEX;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the shipped position " + file + ": " + e.getMessage(), e);
        }
        String[] lines = text.split("\n");
        if (lines.length < 2 || !lines[0].equals(HEADER)) {
            throw corrupt(text);
        }
        try {
            long index = Long.parseLong(lines[1].trim());
            if (index < ChronicleHistoryLog.NO_INDEX) {
                throw corrupt(text);
            }
            return index;
        } catch (NumberFormatException e) {
            throw corrupt(text);
        }
    }

    private IllegalStateException corrupt(String text) {
        String shown = text.length() > 80 ? text.substring(0, 80) + "..." : text;
        return new IllegalStateException("the shipped position " + file + " is not a position file (found \""
                + shown.replace("\n", "\\n") + "\", expected \"" + HEADER + "\\n<index>\"); delete it to re-ship"
                + " everything still in the spool");
    }

    /** Durably replaces the stored index. */
    void write(long index) {
        byte[] content = (HEADER + "\n" + index + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(java.nio.ByteBuffer.wrap(content));
                ch.force(true);
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            syncDirectory();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the shipped position " + file + ": " + e.getMessage(), e);
        }
    }

    /** Makes the rename durable; some platforms cannot open a directory, and then it is skipped. */
    private void syncDirectory() {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // best effort: on such platforms the rename is as durable as the OS makes it
        }
    }
}
