package io.isowatch.ui.server;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import io.isowatch.ui.ConsolePage;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * How the console answers: every response carries the same protective headers (the page policy,
 * no MIME sniffing, no framing, no referrer), and nothing is cached, since findings arrive all
 * the time.
 */
final class Responses {

    static final String HTML = "text/html; charset=utf-8";
    static final String JSON = "application/json; charset=utf-8";
    static final String TEXT = "text/plain; charset=utf-8";
    static final String SCRIPT = "text/javascript; charset=utf-8";
    static final String STYLE = "text/css; charset=utf-8";
    static final String EVENTS = "text/event-stream; charset=utf-8";

    private Responses() {
    }

    /** Sets the headers every response carries, and its content type. */
    static void headers(HttpExchange exchange, String contentType) {
        Headers h = exchange.getResponseHeaders();
        h.set("Content-Type", contentType);
        h.set("Content-Security-Policy", ConsolePage.SERVER_POLICY);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("X-Frame-Options", "DENY");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Cross-Origin-Resource-Policy", "same-origin");
        h.set("Cache-Control", "no-store");
    }

    /** Sends a whole response and closes the exchange. */
    static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        headers(exchange, contentType);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** A short plain-text error. */
    static void error(HttpExchange exchange, int status, String message) throws IOException {
        send(exchange, status, TEXT, message + "\n");
    }
}
