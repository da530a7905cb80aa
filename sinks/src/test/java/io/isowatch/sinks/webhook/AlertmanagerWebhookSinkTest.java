package io.isowatch.sinks.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.isowatch.anomaly.AnomalyType;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.Release;
import io.isowatch.sinks.Alerts;
import io.isowatch.sinks.ConsoleLink;
import io.isowatch.testing.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;

/** The webhook sink against a real HTTP server on a free port. */
class AlertmanagerWebhookSinkTest {

    /** One request the server received. */
    record Received(String method, String path, String contentType, String body) {
    }

    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private HttpServer server;

    /** Starts a server answering the n-th request (from 0) with {@code status.applyAsInt(n)}, after {@code delay}. */
    private URI serve(IntUnaryOperator status, Duration delay) throws IOException {
        AtomicInteger n = new AtomicInteger();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", (HttpExchange ex) -> {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Received(ex.getRequestMethod(), ex.getRequestURI().getPath(),
                    ex.getRequestHeaders().getFirst("Content-Type"), body));
            try {
                Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            int code = status.applyAsInt(n.getAndIncrement());
            byte[] answer = (code == 200 ? "" : "{\"error\":\"injected\"}").getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(code, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                ex.getResponseBody().write(answer);
            }
            ex.close();
        });
        server.setExecutor(executor);
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
        executor.shutdownNow();
    }

    private static AlertmanagerSinkOptions fast(URI url) {
        return AlertmanagerSinkOptions.of(url).toBuilder().retryBackoff(Duration.ofMillis(20))
                .requestTimeout(Duration.ofSeconds(2)).build();
    }

    @Test
    void accept_postsAlertmanagerV2ArrayWithLabelsAndAnnotations() throws IOException {
        URI url = serve(n -> 200, Duration.ZERO);
        Alert alert = Alerts.gSingleAlert();
        try (AlertmanagerWebhookSink sink = fast(url).toBuilder().extraLabels(Map.of("cluster", "staging"))
                .generatorUrl("http://isowatch.example/findings/{id}").build().open()) {
            sink.accept(alert);
            assertEquals(1, sink.delivered());
            assertEquals(0, sink.failed());
            assertEquals(0, sink.retries());
        }
        assertEquals(1, received.size());
        Received r = received.get(0);
        assertEquals("POST", r.method());
        assertEquals("/api/v2/alerts", r.path());
        assertEquals("application/json", r.contentType());
        List<?> array = (List<?>) Json.parse(r.body());
        assertEquals(1, array.size());
        Map<?, ?> posted = (Map<?, ?>) array.get(0);
        assertEquals(Map.of(
                "alertname", "IsolationAnomaly",
                "anomaly", "G-single-item",
                "model", "serializable",
                "severity", "critical",
                "finding_id", alert.id(),
                "cluster", "staging"), posted.get("labels"));
        assertEquals(Map.of(
                "summary", alert.title(),
                "description", alert.explanation(),
                "detection_delay_ms", "12",
                "released", "live"), posted.get("annotations"));
        assertEquals("2025-01-02T03:04:05.678Z", posted.get("startsAt"));
        assertEquals("http://isowatch.example/findings/" + alert.id(), posted.get("generatorURL"));
        assertEquals(false, posted.containsKey("endsAt"));
    }

    @Test
    void accept_releasedAtEnd_annotatesWhenAndWhy() throws IOException {
        URI url = serve(n -> 200, Duration.ZERO);
        Alert alert = Alerts.gSingleAlert().released(Release.atEnd(AnomalyType.GARBAGE_READ));
        try (AlertmanagerWebhookSink sink = fast(url).open()) {
            sink.accept(alert);
        }
        Map<?, ?> annotations = (Map<?, ?>) ((Map<?, ?>) ((List<?>) Json.parse(received.get(0).body())).get(0))
                .get("annotations");
        assertEquals("end-of-history", annotations.get("released"));
        assertEquals(Release.GARBAGE_READ_REASON, annotations.get("released_reason"));
    }

    @Test
    void accept_withConsole_annotatesTheFindingsPageAndLinksItAsGenerator() throws IOException {
        URI url = serve(n -> 200, Duration.ZERO);
        Alert alert = Alerts.gSingleAlert();
        try (AlertmanagerWebhookSink sink = fast(url).toBuilder()
                .console(new ConsoleLink("https://console.example/")).build().open()) {
            sink.accept(alert);
        }
        Map<?, ?> posted = (Map<?, ?>) ((List<?>) Json.parse(received.get(0).body())).get(0);
        String page = "https://console.example/findings/" + alert.id();
        assertEquals(page, ((Map<?, ?>) posted.get("annotations")).get("finding_url"));
        assertEquals(page, posted.get("generatorURL"));
    }

    @Test
    void accept_serverErrorThenOk_isRetriedAndDelivered() throws IOException {
        URI url = serve(n -> n == 0 ? 500 : 200, Duration.ZERO);
        try (AlertmanagerWebhookSink sink = fast(url).open()) {
            sink.accept(Alerts.gSingleAlert());
            assertEquals(1, sink.delivered());
            assertEquals(1, sink.retries());
            assertEquals(0, sink.failed());
        }
        assertEquals(2, received.size());
        assertEquals(received.get(0).body(), received.get(1).body(), "the retry sends the same alert");
    }

    @Test
    void accept_serverAlwaysUnavailable_givesUpAfterMaxAttempts() throws IOException {
        URI url = serve(n -> 503, Duration.ZERO);
        try (AlertmanagerWebhookSink sink = fast(url).toBuilder().maxAttempts(3).build().open()) {
            sink.accept(Alerts.gSingleAlert());
            assertEquals(0, sink.delivered());
            assertEquals(1, sink.failed());
            assertEquals(2, sink.retries());
        }
        assertEquals(3, received.size());
    }

    @Test
    void accept_badRequest_isNotRetried() throws IOException {
        URI url = serve(n -> 400, Duration.ZERO);
        try (AlertmanagerWebhookSink sink = fast(url).open()) {
            sink.accept(Alerts.gSingleAlert());
            assertEquals(1, sink.failed());
            assertEquals(0, sink.retries());
        }
        assertEquals(1, received.size());
    }

    @Test
    void accept_unreachableServer_doesNotThrow_andCountsTheFailure() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (AlertmanagerWebhookSink sink = fast(URI.create("http://127.0.0.1:" + port)).toBuilder().maxAttempts(2)
                .build().open()) {
            sink.accept(Alerts.gSingleAlert());
            assertEquals(0, sink.delivered());
            assertEquals(1, sink.failed());
            assertEquals(1, sink.retries());
        }
    }

    @Test
    void accept_slowServer_isCutOffByTheRequestTimeout() throws IOException {
        URI url = serve(n -> 200, Duration.ofSeconds(5));
        long start = System.nanoTime();
        try (AlertmanagerWebhookSink sink = fast(url).toBuilder().requestTimeout(Duration.ofMillis(300))
                .maxAttempts(1).build()
                .open()) {
            sink.accept(Alerts.gSingleAlert());
            assertEquals(1, sink.failed());
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 3_000, "took " + millis + " ms");
    }

    @Test
    void alertsEndpoint_appendsTheApiPathOnce() {
        assertEquals(URI.create("http://am:9093/api/v2/alerts"),
                AlertmanagerSinkOptions.of(URI.create("http://am:9093")).alertsEndpoint());
        assertEquals(URI.create("http://gw/am/api/v2/alerts"),
                AlertmanagerSinkOptions.of(URI.create("http://gw/am/")).alertsEndpoint());
        assertEquals(URI.create("http://am:9093/api/v2/alerts"),
                AlertmanagerSinkOptions.of(URI.create("http://am:9093/api/v2/alerts")).alertsEndpoint());
    }

    @Test
    void options_rejectTheSinksOwnLabelsAndBadValues() {
        URI url = URI.create("http://am:9093");
        assertThrows(IllegalArgumentException.class,
                () -> AlertmanagerSinkOptions.of(url).toBuilder().extraLabels(Map.of("anomaly", "x")).build());
        assertThrows(IllegalArgumentException.class,
                () -> AlertmanagerSinkOptions.of(url).toBuilder().extraLabels(Map.of("bad-name", "x")).build());
        assertThrows(IllegalArgumentException.class, () -> AlertmanagerSinkOptions.of(url).toBuilder().maxAttempts(0)
                .build());
        assertThrows(IllegalArgumentException.class, () -> AlertmanagerSinkOptions.of(URI.create("ftp://am")));
    }
}
