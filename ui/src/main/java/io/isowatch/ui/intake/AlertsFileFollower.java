package io.isowatch.ui.intake;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * Follows an alerts JSON-lines file as it grows ({@code tail -F}), handing each complete line to
 * an {@link AlertIntake} from the file's first line on.
 *
 * <p>Polls: every {@code interval} it reads what was appended since the last read. Polling,
 * rather than a file-system watch service, works on every file system (network mounts and
 * container volumes among them) and bounds the delay by the interval. A line is taken only once
 * its newline is written, so a half-written line is never mistaken for a bad one. A file that
 * does not exist yet is waited for; one that shrank (truncated, or replaced by a new file) is
 * read again from its start; repeats that causes are dropped by the store. Runs on one daemon
 * thread until {@link #close()}.
 */
public final class AlertsFileFollower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AlertsFileFollower.class);

    private final Path file;
    private final AlertIntake intake;
    private final long intervalMillis;
    private final Thread thread;
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private volatile boolean running = true;
    private long position;
    private long lines;

    private AlertsFileFollower(Path file, AlertIntake intake, Duration interval) {
        this.file = file;
        this.intake = intake;
        this.intervalMillis = Math.max(1, interval.toMillis());
        this.thread = new Thread(this::run, "isowatch-ui-follow-" + file.getFileName());
        this.thread.setDaemon(true);
    }

    /** Starts following {@code file}, polling every {@code interval}. */
    public static AlertsFileFollower start(Path file, AlertIntake intake, Duration interval) {
        AlertsFileFollower f = new AlertsFileFollower(file, intake, interval);
        f.thread.start();
        return f;
    }

    /** Complete lines read so far. */
    public synchronized long lines() {
        return lines;
    }

    private void run() {
        boolean warnedMissing = false;
        while (running) {
            try {
                readNew();
                warnedMissing = false;
            } catch (NoSuchFileException e) {
                if (!warnedMissing) {
                    LOG.info("waiting for the alerts file {} to appear", file);
                    warnedMissing = true;
                }
            } catch (IOException e) {
                LOG.warn("cannot read the alerts file {}: {}", file, e.toString());
            }
            try {
                Thread.sleep(intervalMillis);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Reads what was appended since the last call; package-private for tests that step it. */
    synchronized void readNew() throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < position) {
                LOG.info("the alerts file {} shrank from {} to {} bytes; reading it again from the start", file,
                        position, size);
                position = 0;
                partial.reset();
            }
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            while (position < size) {
                buffer.clear();
                int n = ch.read(buffer, position);
                if (n <= 0) {
                    break;
                }
                position += n;
                split(buffer.array(), n);
            }
        }
    }

    private void split(byte[] bytes, int length) {
        int start = 0;
        for (int i = 0; i < length; i++) {
            if (bytes[i] == '\n') {
                partial.write(bytes, start, i - start);
                line(partial.toString(StandardCharsets.UTF_8));
                partial.reset();
                start = i + 1;
            }
        }
        partial.write(bytes, start, length - start);
    }

    private void line(String text) {
        String line = text.strip();
        if (!line.isEmpty()) {
            lines++;
            intake.accept(line);
        }
    }

    /** Stops following; the thread ends within one interval. */
    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
