package io.isowatch.agent.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The spool's corrupt records, set aside in {@value #FILE_NAME} beside the queue files: one JSON
 * line per record, {@code {"index":N,"index_hex":"…","error":"…","bytes_base64":"…"}}, so the
 * record can be examined (or decoded by a later isowatch) after the roll file holding it is gone.
 *
 * <p>A Chronicle queue is append-only, so the record itself stays where it is; readers skip it
 * and the shipper's acknowledged position moves past it. Adding is idempotent per index (the
 * shipper re-reads a record after a failed round, a restarted agent after a crash), and each line
 * is forced to disk before {@link #add} returns. Thread-safe.
 */
final class SpoolQuarantine {

    static final String FILE_NAME = "quarantine.jsonl";
    private static final Pattern INDEX = Pattern.compile("^\\{\"index\":(-?\\d+),");

    private final Path file;
    private final Set<Long> indices = new HashSet<>();

    /**
     * Opens the quarantine of the spool in {@code dir}, reading the indices already in it.
     *
     * @throws UncheckedIOException when an existing file cannot be read
     */
    SpoolQuarantine(Path dir) {
        this.file = dir.resolve(FILE_NAME);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the spool's quarantine " + file + ": " + e.getMessage(), e);
        }
        for (String line : lines) {
            Matcher m = INDEX.matcher(line);
            if (m.find()) {
                indices.add(Long.parseLong(m.group(1)));
            }
        }
    }

    Path file() {
        return file;
    }

    /** Records that have been set aside, over every run of the spool. */
    synchronized int size() {
        return indices.size();
    }

    /**
     * Sets {@code record} aside; returns false, writing nothing, when its index already is.
     *
     * @throws UncheckedIOException when the line cannot be written
     */
    synchronized boolean add(CorruptRecordException record) {
        if (indices.contains(record.index())) {
            return false;
        }
        String line = "{\"index\":" + record.index() + ",\"index_hex\":\"" + Long.toHexString(record.index())
                + "\",\"error\":\"" + escape("byte " + record.errorOffset() + ": " + record.reason())
                + "\",\"bytes_base64\":\"" + Base64.getEncoder().encodeToString(record.bytes()) + "\"}\n";
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to the spool's quarantine " + file + ": " + e.getMessage(), e);
        }
        indices.add(record.index());
        return true;
    }

    /** JSON string escaping for the decoder's message (quotes, backslashes, control characters). */
    private static String escape(String text) {
        StringBuilder b = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04X", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
