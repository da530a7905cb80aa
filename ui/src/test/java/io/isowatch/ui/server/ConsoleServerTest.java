package io.isowatch.ui.server;

import io.isowatch.sinks.Alert;
import io.isowatch.testing.Json;
import io.isowatch.ui.FindingStore;
import io.isowatch.ui.FindingView;
import io.isowatch.ui.TestAlerts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The console's server over real HTTP, on a free loopback port. */
class ConsoleServerTest {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final FindingStore store = new FindingStore(100);
    private ConsoleServer server;
    private URI base;

    @BeforeEach
    void start() {
        server = ConsoleServer.start(InetAddress.getLoopbackAddress(), 0, store);
        base = URI.create(server.link().base() + "/");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void pages_areOneStaticShell_withProtectiveHeaders() throws Exception {
        Alert a = TestAlerts.writeSkewAlert(TestAlerts.SCRIPT_KEY, "b", "agent-1", 1);
        store.add(FindingView.of(a));
        String shell = null;
        for (String path : List.of("", "findings/" + a.id(), "history?name=agent-1", "findings/%3Cscript%3E")) {
            HttpResponse<String> r = get(path);
            assertEquals(200, r.statusCode(), path);
            assertEquals("text/html; charset=utf-8", r.headers().firstValue("Content-Type").orElse(""));
            assertTrue(r.headers().firstValue("Content-Security-Policy").orElse("").contains("script-src 'self'"));
            assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(""));
            assertEquals("DENY", r.headers().firstValue("X-Frame-Options").orElse(""));
            shell = shell == null ? r.body() : shell;
            assertEquals(shell, r.body(), "no value of the request or the history is ever in the page: " + path);
        }
        assertTrue(get("assets/console.js").body().contains("EventSource"));
        assertEquals("text/css; charset=utf-8", get("assets/console.css").headers().firstValue("Content-Type").orElse(""));
    }

    @Test
    void api_listsRowsNewestFirst_andServesOneViewWithItsPicture() throws Exception {
        Alert first = TestAlerts.writeSkewAlert("a", "b", 0, "agent-1", 1000);
        Alert second = TestAlerts.abortedReadAlert("z", "agent-2", 2000);
        store.add(FindingView.of(first));
        store.add(FindingView.of(second));
        List<?> rows = (List<?>) Json.parse(get("api/findings").body());
        assertEquals(List.of(second.id(), first.id()), rows.stream().map(r -> ((Map<?, ?>) r).get("id")).toList());

        HttpResponse<String> one = get("api/findings/" + first.id());
        assertEquals(200, one.statusCode());
        assertEquals("application/json; charset=utf-8", one.headers().firstValue("Content-Type").orElse(""));
        Map<String, Object> view = Json.object(one.body());
        assertEquals(first.explanation(), view.get("explanation"));
        assertTrue(((String) view.get("svg")).contains("<svg"), "the cycle's picture");
        assertEquals(false, Json.object(get("api/findings/" + second.id()).body()).containsKey("svg"), "G1a: no cycle");

        assertEquals(404, get("api/findings/" + URLEncoder.encode("../../etc/passwd", StandardCharsets.UTF_8)).statusCode());
        Map<String, Object> overview = Json.object(get("api/overview").body());
        assertEquals(Map.of("G2-item", 1L, "G1a", 1L), overview.get("counts"));
    }

    @Test
    void everythingButGet_isRefused_andUnknownPathsAre404() throws Exception {
        for (String method : List.of("POST", "PUT", "DELETE", "PATCH")) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve("api/findings"))
                    .method(method, HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, r.statusCode(), method);
            assertEquals("GET", r.headers().firstValue("Allow").orElse(""));
        }
        assertEquals(404, get("assets/../pom.xml").statusCode());
        assertEquals(404, get("etc/passwd").statusCode());
        assertEquals(0, store.size(), "nothing changed");
    }

    @Test
    void loopbackConsole_refusesForeignHostNames_againstDnsRebinding() throws Exception {
        assertTrue(raw("Host: evil.example.com:" + server.port()).startsWith("HTTP/1.1 421"));
        assertTrue(raw("Host: localhost:" + server.port()).startsWith("HTTP/1.1 200"));
        assertTrue(raw("Host: 127.0.0.1:" + server.port()).startsWith("HTTP/1.1 200"));
    }

    /** A GET / with a Host header of our choosing (HttpClient does not allow setting it). */
    private String raw(String hostLine) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(("GET / HTTP/1.1\r\n" + hostLine + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        }
    }

    @Test
    void events_sendWhatIsHeldThenEachNewFinding_andResumeAfterTheLastEventId() throws Exception {
        Alert early = TestAlerts.writeSkewAlert("a", "b", 0, "h", 1);
        Alert late = TestAlerts.writeSkewAlert("c", "d", 10, "h", 2);
        store.add(FindingView.of(early));
        HttpResponse<InputStream> r = events(null);
        assertEquals("text/event-stream; charset=utf-8", r.headers().firstValue("Content-Type").orElse(""));
        String firstId;
        try (BufferedReader events = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            List<String> first = nextEvent(events);
            firstId = first.get(0).substring("id: ".length());
            assertTrue(firstId.endsWith("-1"), firstId);
            assertEquals("event: finding", first.get(1));
            assertEquals(early.id(), Json.object(first.get(2).substring("data: ".length())).get("id"));
            store.add(FindingView.of(late));
            List<String> next = nextEvent(events);
            assertEquals("id: " + firstId.replace("-1", "-2"), next.get(0));
            assertEquals(late.id(), Json.object(next.get(2).substring("data: ".length())).get("id"));
        }
        try (BufferedReader events = new BufferedReader(new InputStreamReader(events(firstId).body(), StandardCharsets.UTF_8))) {
            assertTrue(nextEvent(events).get(0).endsWith("-2"), "only what came after the last one seen");
        }
        // An id of an earlier console (restarted, its source read again): everything held, again.
        try (BufferedReader events = new BufferedReader(new InputStreamReader(events("0badc0de-7").body(),
                StandardCharsets.UTF_8))) {
            assertTrue(nextEvent(events).get(0).endsWith("-1"));
        }
    }

    private HttpResponse<InputStream> events(String lastEventId) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve("api/events"));
        if (lastEventId != null) {
            b.header("Last-Event-ID", lastEventId);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    /** The lines of the next event, skipping the retry hint and comments. */
    private static List<String> nextEvent(BufferedReader in) throws IOException {
        while (true) {
            List<String> lines = new java.util.ArrayList<>();
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                lines.add(line);
            }
            if (!lines.isEmpty() && lines.get(0).startsWith("id: ")) {
                return lines;
            }
        }
    }
}
