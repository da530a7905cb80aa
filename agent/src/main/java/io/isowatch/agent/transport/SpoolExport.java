package io.isowatch.agent.transport;

import io.isowatch.history.AtomTable;
import io.isowatch.history.codec.JsonLinesWriter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Writes a spool as a Jepsen JSON-lines history ({@code isowatch agent export}), the form
 * {@code isowatch check} and elle-cli read: every event it holds, oldest first, one op per line
 * through the core's {@link JsonLinesWriter}. Records that cannot be decoded are skipped and
 * handed to a consumer. The spool is only read: nothing is appended, no shipped position moves,
 * no roll file is deleted, and the quarantine file is left as it is, so it is safe beside a
 * running agent (which is then read up to where it was).
 */
public final class SpoolExport {

    private SpoolExport() {
    }

    /**
     * Writes the events of the spool in {@code dir} to {@code out}, which is flushed, not closed.
     *
     * @param corrupt receives each record that cannot be decoded (skipped)
     * @return what the spool held
     * @throws IllegalArgumentException when {@code dir} is not a spool
     * @throws UncheckedIOException     when {@code out} cannot be written
     */
    public static SpoolScan.Summary export(Path dir, OutputStream out, Consumer<CorruptRecordException> corrupt) {
        requireSpool(dir);
        // Retention off: an export deletes nothing, whatever the stored position says.
        SpoolOptions readOnly = SpoolOptions.defaults().toBuilder().keepShippedRollFiles(Integer.MAX_VALUE).build();
        try (ChronicleHistoryLog spool = ChronicleHistoryLog.open(dir, readOnly, new AtomTable(), null)) {
            JsonLinesWriter writer = new JsonLinesWriter(new Unclosed(out), spool.atoms());
            try {
                return SpoolScan.read(spool, event -> writer.write(event.op()), corrupt);
            } finally {
                writer.close(); // flushes; Unclosed keeps the caller's stream open
            }
        }
    }

    private static void requireSpool(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no spool at " + dir
                    + ": give the --spool-dir an agent run recorded into");
        }
        try (Stream<Path> files = Files.list(dir)) {
            if (files.map(f -> f.getFileName().toString()).noneMatch(n -> n.endsWith(".cq4") || n.endsWith(".cq4t"))) {
                throw new IllegalArgumentException(dir + " holds no Chronicle queue files (*.cq4, *.cq4t), so it is"
                        + " not a spool: give the --spool-dir an agent run recorded into");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the spool directory " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Passes writes through and turns close into flush, so the caller's stream stays open. */
    private static final class Unclosed extends OutputStream {
        private final OutputStream out;

        Unclosed(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.flush();
        }
    }
}
