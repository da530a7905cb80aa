package io.isowatch.agent.metrics;

import io.isowatch.agent.recorder.HistoryRecorder;
import io.isowatch.agent.recorder.InMemoryEventLog;
import io.isowatch.history.MicroOp;
import io.isowatch.history.OpType;
import io.isowatch.testkit.ListeningSockets;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent's metrics, scraped over real HTTP from the real exporter. */
class AgentMetricsTest {

    private static String scrape(int port) throws Exception {
        return scrape("localhost", port);
    }

    private static String scrape(String host, int port) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        return response.body();
    }

    private static double value(String body, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)").matcher(body);
        assertTrue(m.find(), () -> series + " not in\n" + body);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void scrape_exposesEveryMetricWithItsValue() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        AgentMetrics metrics = new AgentMetrics(registry);
        AtomicLong backlog = new AtomicLong(17);
        metrics.spoolBacklog(backlog::get);
        metrics.eventRecorded();
        metrics.eventRecorded();
        metrics.outcome(OpType.OK);
        metrics.outcome(OpType.OK);
        metrics.outcome(OpType.FAIL);
        metrics.outcome(OpType.INFO);
        metrics.transactionLatency(2_000_000);
        metrics.transactionLatency(30_000);
        metrics.eventsShipped(5);
        metrics.eventsShipped(3);
        metrics.shipError();
        try (HTTPServer server = AgentMetrics.serve(registry, InetAddress.getLoopbackAddress(), 0)) {
            String body = scrape(server.getPort());
            assertEquals(2, value(body, AgentMetricNames.EVENTS_RECORDED));
            assertEquals(2, value(body, AgentMetricNames.TRANSACTIONS + "{outcome=\"ok\"}"));
            assertEquals(1, value(body, AgentMetricNames.TRANSACTIONS + "{outcome=\"fail\"}"));
            assertEquals(1, value(body, AgentMetricNames.TRANSACTIONS + "{outcome=\"info\"}"));
            assertEquals(2, value(body, AgentMetricNames.TRANSACTION_LATENCY + "_count"));
            assertEquals(0.00203, value(body, AgentMetricNames.TRANSACTION_LATENCY + "_sum"), 1e-9);
            assertEquals(1, value(body, AgentMetricNames.TRANSACTION_LATENCY + "_bucket{le=\"5.0E-5\"}"));
            assertEquals(8, value(body, AgentMetricNames.EVENTS_SHIPPED));
            assertEquals(1, value(body, AgentMetricNames.SHIP_ERRORS));
            assertEquals(17, value(body, AgentMetricNames.SPOOL_BACKLOG));
            assertTrue(body.contains("# TYPE " + AgentMetricNames.SPOOL_BACKLOG + " gauge"), body);

            backlog.set(4);
            metrics.spoolBacklog(backlog::get);
            assertEquals(4, value(scrape(server.getPort()), AgentMetricNames.SPOOL_BACKLOG));
        }
    }

    @Test
    void recorder_countsEventsOutcomesAndLatency() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        AgentMetrics metrics = new AgentMetrics(registry);
        AtomicLong clock = new AtomicLong();
        HistoryRecorder recorder = HistoryRecorder.builder("a", new InMemoryEventLog())
                .metrics(metrics).clock(clock::get).build();
        List<MicroOp> txn = List.of(new MicroOp.Append(1, 1));
        recorder.invoke(0, txn);
        clock.addAndGet(1_500_000_000L);
        recorder.ok(0, txn);
        recorder.invoke(0, txn);
        recorder.info(0);
        try (HTTPServer server = AgentMetrics.serve(registry, InetAddress.getLoopbackAddress(), 0)) {
            String body = scrape(server.getPort());
            assertEquals(4, value(body, AgentMetricNames.EVENTS_RECORDED));
            assertEquals(1, value(body, AgentMetricNames.TRANSACTIONS + "{outcome=\"ok\"}"));
            assertEquals(1, value(body, AgentMetricNames.TRANSACTIONS + "{outcome=\"info\"}"));
            assertEquals(1.5, value(body, AgentMetricNames.TRANSACTION_LATENCY + "_sum"), 1e-9);
        }
    }

    @Test
    void outcome_invoke_isRejected() {
        AgentMetrics metrics = new AgentMetrics(new PrometheusRegistry());
        assertThrows(IllegalArgumentException.class, () -> metrics.outcome(OpType.INVOKE));
    }

    @Test
    void serve_onLoopback_listensOn127001Only() throws Exception {
        try (HTTPServer server = AgentMetrics.serve(new PrometheusRegistry(), InetAddress.getLoopbackAddress(), 0)) {
            ListeningSockets.Listener l = listenerOn(server.getPort());
            assertEquals("127.0.0.1", l.address().getHostAddress(), "the exporter listens beyond loopback: " + l);
        }
    }

    @Test
    void serve_onAnAddressGiven_listensAndAnswersThere() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        new AgentMetrics(registry).eventRecorded();
        InetAddress other = InetAddress.getByName("127.0.0.2"); // loopback too, on Linux
        try (HTTPServer server = AgentMetrics.serve(registry, other, 0)) {
            assertEquals(other, listenerOn(server.getPort()).address());
            assertEquals(1, value(scrape("127.0.0.2", server.getPort()), AgentMetricNames.EVENTS_RECORDED));
        }
    }

    private static ListeningSockets.Listener listenerOn(int port) {
        List<ListeningSockets.Listener> on = ListeningSockets.ofThisProcess().stream().filter(l -> l.port() == port).toList();
        assertEquals(1, on.size(), "listeners on port " + port + ": " + on);
        return on.get(0);
    }
}
