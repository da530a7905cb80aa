package io.isowatch.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The mark an agent leaves in its spool directory when it stops cleanly: the spool's last index
 * then, and the largest process id the spool names. A restart that finds the mark, and the spool
 * still ending at that index, knows that no transaction is open and where processes continue,
 * without reading the spool ({@link SpoolResume} reads about a million events a second). The mark
 * is taken (deleted) at start, so a run that crashes leaves none and its restart reads the spool.
 *
 * @param lastIndex  the spool's last Chronicle index at the stop
 * @param maxProcess the largest process id of any event in the spool, or -1
 */
record CleanStop(long lastIndex, long maxProcess) {

    static final String FILE_NAME = "clean-stop";
    private static final String HEADER = "isowatch-clean-stop 1";

    /**
     * Reads and deletes the mark in {@code dir}; null when there is none (a first run, a crash) or
     * it is not a mark.
     */
    static CleanStop take(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        try {
            String[] lines = Files.readString(file, StandardCharsets.UTF_8).split("\n");
            Files.delete(file);
            if (lines.length < 3 || !lines[0].equals(HEADER)) {
                return null;
            }
            return new CleanStop(Long.parseLong(lines[1].trim()), Long.parseLong(lines[2].trim()));
        } catch (NoSuchFileException e) {
            return null;
        } catch (NumberFormatException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or delete " + file + ": " + e.getMessage()
                    + "; delete it by hand (the spool is then read at start)", e);
        }
    }

    /** Leaves the mark in {@code dir}. */
    void write(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        try {
            Files.writeString(file, HEADER + "\n" + lastIndex + "\n" + maxProcess + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
