package io.isowatch.sinks.webhook;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertJson;
import io.isowatch.sinks.AlertSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Posts each alert to Alertmanager's API v2 ({@code POST /api/v2/alerts}, content type
 * {@code application/json}) as an array holding one alert:
 * <pre>
 * [{"labels": {"alertname": "IsolationAnomaly", "anomaly": "G2-item", "model": "serializable",
 *              "severity": "critical", "finding_id": "3f2a…", ...extra labels},
 *   "annotations": {"summary": title, "description": explanation, "detection_delay_ms": "12",
 *                   "released": "live", "finding_url": "https://isowatch.example.com/findings/3f2a…"},
 *   "startsAt": "2025-01-02T03:04:05.678Z",
 *   "generatorURL": "…"}]
 * </pre>
 * {@code finding_url} (the finding's page in the findings console) is there only when the options
 * name a console; it is then the {@code generatorURL} too, unless one is configured.
 * {@code released} is {@code live} or {@code end-of-history} (the finding waited for its history
 * to end, decision 0009), the latter with a {@code released_reason} annotation; annotations, not
 * labels, so a finding's identity does not depend on them.
 * Alertmanager identifies an alert by its labels, so each finding is its own alert and a repeat of
 * one (same {@code finding_id}) merges with it. {@code model} joins the checked models with commas.
 * No {@code endsAt} is sent: Alertmanager resolves the alert after its {@code resolve_timeout}, as
 * a finding is a past event that is never re-sent.
 *
 * <p>{@link #accept} blocks until the alert is delivered or given up on: at most
 * {@code maxAttempts} attempts of at most {@code requestTimeout} each, with a doubling pause
 * between them. Connection errors, timeouts, 429 and 5xx responses are retried; other responses
 * fail at once. A failed delivery is logged at WARN and counted ({@link #failed()}), never thrown
 * at the caller. An interrupt ends the attempts, counts the alert as failed and stays set.
 * Thread-safe.
 */
public final class AlertmanagerWebhookSink implements AlertSink {

    /** The constant {@code alertname} of every alert. */
    public static final String ALERT_NAME = "IsolationAnomaly";
    public static final String ALERTNAME_LABEL = "alertname";
    public static final String ANOMALY_LABEL = "anomaly";
    public static final String MODEL_LABEL = "model";
    public static final String SEVERITY_LABEL = "severity";
    public static final String FINDING_ID_LABEL = "finding_id";
    /** The annotation holding the finding's page in the findings console. */
    public static final String FINDING_URL_ANNOTATION = "finding_url";

    private static final Logger LOG = LoggerFactory.getLogger(AlertmanagerWebhookSink.class);
    private static final JsonFactory FACTORY = new JsonFactory();

    private final AlertmanagerSinkOptions options;
    private final URI endpoint;
    private final HttpClient client;
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private volatile boolean closed;

    public AlertmanagerWebhookSink(AlertmanagerSinkOptions options) {
        this.options = options;
        this.endpoint = options.alertsEndpoint();
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(options.requestTimeout())
                .build();
    }

    @Override
    public void accept(Alert alert) {
        if (closed) {
            throw new IllegalStateException("the Alertmanager sink for " + endpoint + " is closed");
        }
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .timeout(options.requestTimeout())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body(alert)))
                .build();
        String lastProblem = "no attempt made";
        long pause = options.retryBackoff().toMillis();
        for (int attempt = 1; attempt <= options.maxAttempts(); attempt++) {
            if (attempt > 1) {
                retries.incrementAndGet();
                if (!sleep(pause)) {
                    lastProblem = "interrupted";
                    break;
                }
                pause = Math.min(pause * 2, Duration.ofMinutes(1).toMillis());
            }
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                int status = response.statusCode();
                if (status / 100 == 2) {
                    delivered.incrementAndGet();
                    return;
                }
                lastProblem = "HTTP " + status + (response.body().isBlank() ? "" : ": " + abbreviate(response.body()));
                if (status != 429 && status / 100 != 5) {
                    break;
                }
            } catch (IOException e) {
                lastProblem = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                lastProblem = "interrupted";
                break;
            }
        }
        failed.incrementAndGet();
        LOG.warn("alert {} ({}) was not delivered to Alertmanager at {}: {}", alert.id(), alert.type(), endpoint,
                lastProblem);
    }

    /** Alerts Alertmanager accepted. */
    public long delivered() {
        return delivered.get();
    }

    /** Alerts given up on after their last attempt. */
    public long failed() {
        return failed.get();
    }

    /** Attempts after the first, over all alerts. */
    public long retries() {
        return retries.get();
    }

    /** The address posted to. */
    public URI endpoint() {
        return endpoint;
    }

    @Override
    public void close() {
        closed = true;
    }

    /** The request body: a JSON array holding the one alert. */
    byte[] body(Alert alert) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(ALERTNAME_LABEL, ALERT_NAME);
        labels.put(ANOMALY_LABEL, alert.type());
        labels.put(MODEL_LABEL, String.join(",", alert.models()));
        labels.put(SEVERITY_LABEL, options.severity());
        labels.put(FINDING_ID_LABEL, alert.id());
        labels.putAll(options.extraLabels());
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("summary", alert.title());
        annotations.put("description", alert.explanation());
        if (alert.hasDetectionDelay()) {
            annotations.put("detection_delay_ms", Long.toString(alert.detectionDelayMillis()));
        }
        annotations.put("released", alert.release().name());
        if (alert.releasedAtEnd()) {
            annotations.put("released_reason", alert.release().reason());
        }
        String page = options.console() == null ? null : options.console().finding(alert.id());
        if (page != null) {
            annotations.put(FINDING_URL_ANNOTATION, page);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            g.writeStartArray();
            g.writeStartObject();
            stringMap(g, "labels", labels);
            stringMap(g, "annotations", annotations);
            g.writeStringField("startsAt", AlertJson.rfc3339(alert.detectedAtMillis()));
            if (options.generatorUrl() != null) {
                g.writeStringField("generatorURL", options.generatorUrl().replace("{id}", alert.id()));
            } else if (page != null) {
                g.writeStringField("generatorURL", page);
            }
            g.writeEndObject();
            g.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void stringMap(JsonGenerator g, String field, Map<String, String> map) throws IOException {
        g.writeObjectFieldStart(field);
        for (Map.Entry<String, String> e : map.entrySet()) {
            g.writeStringField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }

    private static boolean sleep(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String abbreviate(String s) {
        String t = s.strip();
        return t.length() <= 200 ? t : t.substring(0, 200) + "…";
    }
}
