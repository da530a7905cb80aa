package io.isowatch.ui.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.isowatch.sinks.ConsoleLink;
import io.isowatch.ui.ConsoleJson;
import io.isowatch.ui.ConsolePage;
import io.isowatch.ui.FindingStore;
import io.isowatch.ui.FindingView;

import java.io.IOException;

/**
 * Every address the console answers, read-only: GET alone is allowed, and no part of a request
 * names a file: the page and its two assets are fixed strings from the jar, and a finding id is
 * only ever looked up in the store.
 *
 * <pre>
 * /                       the live list           (the page; its script does the rest)
 * /findings/ID            one finding's page      (ConsoleLink.FINDINGS_PATH)
 * /history?name=H         one history's summary
 * /assets/console.js|css  the script and the style sheet
 * /api/events             Server-Sent Events: every finding's row, then each new one
 * /api/findings           every held finding's row, newest first
 * /api/findings/ID        one finding's view, with its picture; 404 when not held
 * /api/overview           counts per type, history summaries
 * </pre>
 */
final class Routes implements HttpHandler {

    private static final String API_FINDING = "/api/findings/";

    private final FindingStore store;
    private final EventStream events;
    private final HostCheck hosts;
    private final String shell = ConsolePage.serverShell();

    Routes(FindingStore store, EventStream events, HostCheck hosts) {
        this.store = store;
        this.events = events;
        this.hosts = hosts;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", "GET");
                Responses.error(exchange, 405, "the findings console is read-only: GET only");
                return;
            }
            if (!hosts.allows(exchange.getRequestHeaders().getFirst("Host"))) {
                Responses.error(exchange, 421, "this console answers to localhost only; "
                        + "start it with --ui-bind to serve other names");
                return;
            }
            route(exchange, exchange.getRequestURI().getPath());
        }
    }

    private void route(HttpExchange exchange, String path) throws IOException {
        if (path.equals("/") || path.equals("/history") || path.startsWith(ConsoleLink.FINDINGS_PATH)) {
            Responses.send(exchange, 200, Responses.HTML, shell);
        } else if (path.equals("/assets/console.js")) {
            Responses.send(exchange, 200, Responses.SCRIPT, ConsolePage.SCRIPT);
        } else if (path.equals("/assets/console.css")) {
            Responses.send(exchange, 200, Responses.STYLE, ConsolePage.STYLE);
        } else if (path.equals("/api/events")) {
            events.handle(exchange);
        } else if (path.equals("/api/findings")) {
            Responses.send(exchange, 200, Responses.JSON, ConsoleJson.rows(store.newestFirst()));
        } else if (path.startsWith(API_FINDING)) {
            finding(exchange, path.substring(API_FINDING.length()));
        } else if (path.equals("/api/overview")) {
            Responses.send(exchange, 200, Responses.JSON, ConsoleJson.overview(store));
        } else {
            Responses.error(exchange, 404, "no such page");
        }
    }

    private void finding(HttpExchange exchange, String id) throws IOException {
        FindingView view = store.get(id);
        if (view == null) {
            Responses.send(exchange, 404, Responses.JSON, "{\"error\":\"no finding with this id is held\"}");
            return;
        }
        Responses.send(exchange, 200, Responses.JSON, ConsoleJson.view(view, view.svg()));
    }
}
