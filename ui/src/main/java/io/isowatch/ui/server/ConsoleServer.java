package io.isowatch.ui.server;

import com.sun.net.httpserver.HttpServer;
import io.isowatch.sinks.ConsoleLink;
import io.isowatch.ui.FindingStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The findings console's web server: the JDK's own {@link HttpServer}, answering {@link Routes}
 * from a {@link FindingStore} that others fill (an intake following a file or topic, or the demo's
 * job directly).
 *
 * <p>The JDK's server keeps the footprint small (no web framework, nothing to patch but the JDK)
 * and is enough for a console a few people open at once. Requests run on daemon threads, one per
 * request; an open event stream keeps its thread, and their number is capped
 * ({@value #MAX_STREAMS}).
 */
public final class ConsoleServer implements AutoCloseable {

    /** Event streams open at once, over all browsers. */
    public static final int MAX_STREAMS = 64;

    private final HttpServer server;
    private final ExecutorService threads;
    private final EventStream events;

    private ConsoleServer(HttpServer server, ExecutorService threads, EventStream events) {
        this.server = server;
        this.threads = threads;
        this.events = events;
    }

    /**
     * Starts serving {@code store} on {@code bind}:{@code port} ({@code port} 0 for any free one).
     *
     * @throws UncheckedIOException when the address cannot be bound (the port is taken, say)
     */
    public static ConsoleServer start(InetAddress bind, int port, FindingStore store) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(bind, port), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + bind.getHostAddress() + ":" + port + ": "
                    + e.getMessage(), e);
        }
        AtomicInteger n = new AtomicInteger();
        ExecutorService threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "isowatch-ui-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        EventStream events = new EventStream(store, MAX_STREAMS);
        server.createContext("/", new Routes(store, events, new HostCheck(bind)));
        server.setExecutor(threads);
        server.start();
        return new ConsoleServer(server, threads, events);
    }

    /** The port listened on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /**
     * The console's address for a browser on this machine: the bound address, or 127.0.0.1 when
     * bound to every address.
     */
    public ConsoleLink link() {
        InetAddress a = server.getAddress().getAddress();
        String host = a.isAnyLocalAddress() ? "127.0.0.1" : a.getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return new ConsoleLink("http://" + host + ":" + port());
    }

    /** Stops listening and ends open event streams. */
    @Override
    public void close() {
        events.close();
        server.stop(0);
        threads.shutdownNow();
    }
}
