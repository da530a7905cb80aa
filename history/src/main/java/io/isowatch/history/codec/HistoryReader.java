package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.zip.GZIPInputStream;

/**
 * Streams the client ops of a Jepsen history file, in file order, as elle-cli accepts them:
 * JSON lines, one JSON array of op objects, or EDN op maps (optionally wrapped in a vector).
 *
 * <p><b>Format detection.</b> The content decides; the name only breaks ties. After whitespace
 * (and a UTF-8 byte-order mark), the reader looks at the first significant characters:
 * <ul>
 *   <li>{@code {"} or {@code [{"} means JSON (lines or array); {@code {:} or {@code [{:} means
 *       EDN;</li>
 *   <li>{@code (}, {@code ;}, {@code #} or {@code :} first, or {@code [} followed by anything but
 *       {@code {} or {@code ]}, means EDN;</li>
 *   <li>anything else is a tie ({@code []}, {@code {}}, an empty file, garbage): a name ending in
 *       {@code .edn} (optionally {@code .edn.gz}) means EDN, any other name JSON.</li>
 * </ul>
 * A gzip stream (magic bytes {@code 1f 8b}) is unpacked first. Detection reads at most 64 KiB
 * ahead and never more than it needs, so a live pipe is not held up.
 *
 * <p><b>What is read.</b> An op with an integer {@code process} is a client op and must carry
 * {@code type}, {@code f} = {@code txn} and a {@code value} of micro-ops. An op of any other
 * process (such as {@code :nemesis}) is skipped and counted by {@link #opsSkipped()}, but it
 * still takes up an index: an op without an {@code index} field gets its 0-based position in
 * the input, counting skipped ops. Unknown fields are ignored. Semantic faults of a well-formed
 * history (double invocations, unpaired completions, duplicate appends) are left to the checker.
 *
 * <p><b>Cost.</b> Streaming: memory is bounded by a fixed buffer plus the op being read, so
 * multi-gigabyte files are fine. JSON goes line by line through a scanner for the common shape of
 * an op line, and through one Jackson streaming parser for whatever it is unsure of; EDN through a
 * small hand-written tokenizer. Not thread-safe. I/O failures surface as
 * {@link UncheckedIOException}; after any exception the reader should be closed.
 */
public final class HistoryReader implements Closeable {

    /** The two syntaxes a history may be written in. */
    public enum Format {
        /** JSON lines or one JSON array of op objects. */
        JSON,
        /** EDN op maps, optionally wrapped in one vector or list. */
        EDN
    }

    private static final int BUFFER_SIZE = 1 << 16;
    private static final int SNIFF_LIMIT = BUFFER_SIZE - 16;

    private final String sourceName;
    private final Format format;
    private final OpSource source;

    private HistoryReader(String sourceName, Format format, OpSource source) {
        this.sourceName = sourceName;
        this.format = format;
        this.source = source;
    }

    /**
     * Opens a history file.
     *
     * @throws UncheckedIOException when the file cannot be opened
     */
    public static HistoryReader open(Path file, AtomTable atoms) {
        Objects.requireNonNull(file, "file");
        InputStream in;
        try {
            in = Files.newInputStream(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open history " + file + ": " + e, e);
        }
        try {
            return open(file.toString(), in, atoms);
        } catch (RuntimeException e) {
            closeQuietly(in, e);
            throw e;
        }
    }

    /**
     * Reads a history from a stream, which the reader then owns and closes.
     *
     * @param sourceName names the input in messages; its extension breaks format ties
     * @throws UncheckedIOException when the stream cannot be read
     */
    public static HistoryReader open(String sourceName, InputStream in, AtomTable atoms) {
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(atoms, "atoms");
        try {
            BufferedInputStream buffered = new BufferedInputStream(in, BUFFER_SIZE);
            if (isGzip(buffered)) {
                buffered = new BufferedInputStream(new GZIPInputStream(buffered, BUFFER_SIZE), BUFFER_SIZE);
            }
            Format format = detect(buffered, sourceName);
            OpSource source = format == Format.JSON
                    ? new JsonLinesOpReader(sourceName, buffered, atoms)
                    : new EdnOpReader(sourceName, buffered, atoms);
            return new HistoryReader(sourceName, format, source);
        } catch (IOException e) {
            UncheckedIOException failure = new UncheckedIOException("cannot read history " + sourceName + ": " + e, e);
            closeQuietly(in, failure);
            throw failure;
        }
    }

    /**
     * Reads JSON ops held in memory (one op map, JSON lines, or an array), skipping the format
     * detection and buffering a file needs: the stream job decodes one Kafka record this way.
     *
     * @param sourceName names the input in messages (a topic-partition@offset, say)
     */
    public static HistoryReader ofJson(String sourceName, byte[] json, AtomTable atoms) {
        return ofJson(sourceName, json, atoms, null);
    }

    /**
     * As {@link #ofJson(String, byte[], AtomTable)}, and also hands each op map's shipper
     * identity fields ({@code agent}, {@code seq}) to {@code identity}, in the same pass.
     *
     * @param identity filled for the last op read; null to ignore the fields, as the other readers do
     */
    public static HistoryReader ofJson(String sourceName, byte[] json, AtomTable atoms, ShippedIdentity identity) {
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(atoms, "atoms");
        return new HistoryReader(sourceName, Format.JSON, new JsonLinesOpReader(sourceName, json, atoms, identity));
    }

    /**
     * The next client op, or null at the end of the history. Non-client ops are skipped.
     *
     * @throws HistoryFormatException when the input is malformed; the message names the line
     */
    public Op next() {
        return source.next();
    }

    /** The number of non-client ops (nemesis and the like) skipped so far. */
    public long opsSkipped() {
        return source.skipped();
    }

    /** The detected syntax. */
    public Format format() {
        return format;
    }

    /** The name given when opening, as used in messages. */
    public String sourceName() {
        return sourceName;
    }

    /** Closes the underlying stream. */
    @Override
    public void close() {
        source.close();
    }

    private static boolean isGzip(BufferedInputStream in) throws IOException {
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        return b0 == 0x1f && b1 == 0x8b;
    }

    /** Applies the detection rule in the class comment, leaving the stream where it was. */
    static Format detect(BufferedInputStream in, String sourceName) throws IOException {
        in.mark(BUFFER_SIZE);
        try {
            int[] read = {0};
            int first = significant(in, read);
            Format byContent = switch (first) {
                case '{' -> afterBrace(significant(in, read));
                case '[' -> {
                    int second = significant(in, read);
                    if (second == '{') {
                        yield afterBrace(significant(in, read));
                    }
                    yield second == ']' || second == -1 || second == -2 ? null : Format.EDN;
                }
                case '(', ';', '#', ':' -> Format.EDN;
                default -> null;
            };
            return byContent != null ? byContent : byName(sourceName);
        } finally {
            in.reset();
        }
    }

    private static Format afterBrace(int c) {
        return switch (c) {
            case '"' -> Format.JSON;
            case ':' -> Format.EDN;
            default -> null;
        };
    }

    private static Format byName(String sourceName) {
        String name = sourceName.toLowerCase(Locale.ROOT);
        if (name.endsWith(".gz")) {
            name = name.substring(0, name.length() - 3);
        }
        return name.endsWith(".edn") ? Format.EDN : Format.JSON;
    }

    /**
     * The next byte that is not whitespace or a byte-order mark, -1 at the end of input, or -2
     * when the look-ahead budget is spent.
     */
    private static int significant(BufferedInputStream in, int[] read) throws IOException {
        while (read[0] < SNIFF_LIMIT) {
            int c = in.read();
            read[0]++;
            switch (c) {
                case ' ', '\t', '\r', '\n', '\f', 0xEF, 0xBB, 0xBF -> {
                }
                default -> {
                    return c;
                }
            }
        }
        return -2;
    }

    private static void closeQuietly(Closeable c, Throwable primary) {
        try {
            c.close();
        } catch (IOException | RuntimeException e) {
            primary.addSuppressed(e);
        }
    }
}
