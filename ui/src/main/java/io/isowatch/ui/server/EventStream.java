package io.isowatch.ui.server;

import com.sun.net.httpserver.HttpExchange;
import io.isowatch.ui.ConsoleJson;
import io.isowatch.ui.FindingStore;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.Semaphore;

/**
 * The live list's feed, as Server-Sent Events: first every held finding (oldest first), then each
 * new one as it is added, one {@code finding} event per finding with its row ({@link ConsoleJson#row})
 * as data and {@code <server>-<sequence number>} as event id. A browser that reconnects sends the
 * last id it saw ({@code Last-Event-ID}) and gets only what came after; an id of another server
 * (the console restarted and read its source again, perhaps in another order) gets everything
 * held, and the page drops what it already shows.
 *
 * <p>Each stream holds one server thread while it is open, so at most {@code maxStreams} run at
 * once; further ones are refused with 503 and the browser retries. A comment line every
 * {@value #KEEPALIVE_MILLIS} ms finds streams whose reader went away.
 */
final class EventStream {

    static final long KEEPALIVE_MILLIS = 15_000;
    private static final long WAIT_MILLIS = 500;

    private final FindingStore store;
    private final Semaphore streams;
    /** This server's part of every event id, so ids of an earlier server are never taken for ours. */
    private final String server = UUID.randomUUID().toString().substring(0, 8);
    private volatile boolean open = true;

    EventStream(FindingStore store, int maxStreams) {
        this.store = store;
        this.streams = new Semaphore(maxStreams);
    }

    void handle(HttpExchange exchange) throws IOException {
        if (!streams.tryAcquire()) {
            exchange.getResponseHeaders().set("Retry-After", "5");
            Responses.error(exchange, 503, "too many open event streams");
            return;
        }
        try {
            Responses.headers(exchange, Responses.EVENTS);
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                stream(out, lastEventId(exchange));
            }
        } catch (IOException e) {
            // The reader went away: nothing to do but free the thread.
        } finally {
            streams.release();
            exchange.close();
        }
    }

    private void stream(OutputStream out, long after) throws IOException {
        write(out, "retry: 1000\n\n");
        long lastWrite = System.currentTimeMillis();
        while (open) {
            for (FindingStore.Entry e : store.after(after)) {
                write(out, "id: " + server + "-" + e.seq() + "\nevent: finding\ndata: " + ConsoleJson.row(e.view()) + "\n\n");
                after = e.seq();
                lastWrite = System.currentTimeMillis();
            }
            if (System.currentTimeMillis() - lastWrite >= KEEPALIVE_MILLIS) {
                write(out, ": keepalive\n\n");
                lastWrite = System.currentTimeMillis();
            }
            try {
                store.await(after, WAIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** The sequence number after which to resume: that of our own last event id, else 0 (everything). */
    private long lastEventId(HttpExchange exchange) {
        String id = exchange.getRequestHeaders().getFirst("Last-Event-ID");
        String ours = server + "-";
        if (id == null || !id.trim().startsWith(ours)) {
            return 0;
        }
        try {
            return Math.max(0, Long.parseLong(id.trim().substring(ours.length())));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Ends every open stream within {@value #WAIT_MILLIS} ms. */
    void close() {
        open = false;
    }
}
