package io.isowatch.job;

import com.sun.net.httpserver.HttpServer;
import io.isowatch.history.codec.HistoryEventJson;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;
import io.isowatch.job.PairingJobIT.Raw;
import io.isowatch.job.PairingJobIT.Replay;
import io.isowatch.job.serde.JobTypes;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.webhook.AlertmanagerSinkOptions;
import io.isowatch.testing.Golden;
import io.isowatch.testing.Json;

import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Either;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The job's alerts reach an Alertmanager-compatible webhook: a real HTTP server in the test
 * receives {@code POST /api/v2/alerts} with the anomaly and model labels and the explanation,
 * one alert per finding the job streamed to its other sink.
 */
class CheckerJobWebhookIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SharedMiniCluster.EXTENSION;

    private HttpServer server;
    private final Queue<String> posts = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/api/v2/alerts", ex -> {
            if ("POST".equals(ex.getRequestMethod())) {
                posts.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            }
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    @Test
    void writeSkew_reachesTheWebhook_withLabelsAndExplanation() throws Exception {
        Golden.Case writeSkew = Golden.cases().stream().filter(c -> c.name().equals("G2-item-write-skew"))
                .findFirst().orElseThrow();
        AtomTable atoms = new AtomTable();
        HistoryEventJson json = new HistoryEventJson();
        List<Raw> raw = new ArrayList<>();
        for (Op op : writeSkew.ops(atoms)) {
            raw.add(new Raw(0, raw.size(), json.render(new HistoryEvent("skew", op.index(), op), atoms)));
        }
        JobOptions options = JobOptions.parse(Map.of("parallelism", "2", "max-parallelism", "16",
                "checkpoint-interval", "0", "consistency-models", "serializable"));
        URI alertmanager = URI.create("http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort());
        CollectingSink<Alert> collected = new CollectingSink<>();
        DataGeneratorSource<Either<DeadLetter, HistoryEvent>> source =
                new DataGeneratorSource<>(new Replay(raw), raw.size(), JobTypes.DECODED);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(CheckerJob.flinkConfiguration(options));
        new CheckerJob(options, source, JobSinks.of(
                List.of(collected, new FlinkAlertSink(() -> AlertmanagerSinkOptions.of(alertmanager).open())),
                new CollectingSink<>())).execute(env, "webhook-it");

        assertFalse(collected.values().isEmpty(), "the job found the write skew");
        List<Map<String, Object>> received = new ArrayList<>();
        for (String body : posts) {
            for (Object alert : (List<?>) Json.parse(body)) {
                @SuppressWarnings("unchecked")
                Map<String, Object> a = (Map<String, Object>) alert;
                received.add(a);
            }
        }
        assertEquals(collected.values().size(), received.size(), () -> "posted: " + posts);
        for (Map<String, Object> a : received) {
            @SuppressWarnings("unchecked")
            Map<String, Object> labels = (Map<String, Object>) a.get("labels");
            @SuppressWarnings("unchecked")
            Map<String, Object> annotations = (Map<String, Object>) a.get("annotations");
            assertEquals("G2-item", labels.get("anomaly"));
            assertEquals("serializable", labels.get("model"));
            assertTrue(collected.values().stream().anyMatch(c -> c.id().equals(labels.get("finding_id"))), labels::toString);
            assertTrue(String.valueOf(annotations.get("description")).contains("a contradiction"),
                    () -> "explanation: " + annotations.get("description"));
        }
    }
}
