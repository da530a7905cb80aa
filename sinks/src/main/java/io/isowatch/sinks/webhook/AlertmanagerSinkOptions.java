package io.isowatch.sinks.webhook;

import io.isowatch.sinks.ConsoleLink;
import io.isowatch.sinks.SinkOptions;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Options of an {@link AlertmanagerWebhookSink}. Start from {@link #of(URI)} and change what
 * differs through {@link #toBuilder()}.
 *
 * @param url            Alertmanager's base address, e.g. {@code http://alertmanager:9093}; the sink
 *                       posts to {@code api/v2/alerts} under it (a url already ending in
 *                       {@code /api/v2/alerts} is used as it is)
 * @param severity       the {@code severity} label; default {@code critical}
 * @param extraLabels    further constant labels (cluster, environment, ...); the sink's own label
 *                       names are rejected here. Default none
 * @param generatorUrl   the alert's back-link, {@code {id}} replaced by the finding id; null for none
 *                       (the default)
 * @param requestTimeout how long one attempt may take, connecting included; default 5 s
 * @param maxAttempts    attempts per alert before it is counted as failed; default 3
 * @param retryBackoff   the pause before the second attempt, doubled before each further one;
 *                       default 200 ms
 * @param console        the findings console: each alert gets the annotation {@code finding_url}, its
 *                       finding's page, which is also the {@code generatorURL} when no
 *                       {@code generatorUrl} is given; null for none (the default)
 */
public record AlertmanagerSinkOptions(URI url, String severity, Map<String, String> extraLabels, String generatorUrl,
                                      Duration requestTimeout, int maxAttempts, Duration retryBackoff,
                                      ConsoleLink console)
        implements SinkOptions {

    /** Label names the sink sets itself. */
    public static final Set<String> OWN_LABELS = Set.of(AlertmanagerWebhookSink.ALERTNAME_LABEL,
            AlertmanagerWebhookSink.ANOMALY_LABEL, AlertmanagerWebhookSink.MODEL_LABEL,
            AlertmanagerWebhookSink.SEVERITY_LABEL, AlertmanagerWebhookSink.FINDING_ID_LABEL);

    public AlertmanagerSinkOptions {
        Objects.requireNonNull(url, "url");
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
            throw new IllegalArgumentException("the Alertmanager url must be http or https, got " + url);
        }
        Objects.requireNonNull(severity, "severity");
        extraLabels = Map.copyOf(new TreeMap<>(extraLabels));
        for (String name : extraLabels.keySet()) {
            if (OWN_LABELS.contains(name)) {
                throw new IllegalArgumentException("label " + name + " is set by the sink itself");
            }
            if (!name.matches("[a-zA-Z_][a-zA-Z0-9_]*")) {
                throw new IllegalArgumentException("not a valid Alertmanager label name: " + name);
            }
        }
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(retryBackoff, "retryBackoff");
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("requestTimeout must be positive, got " + requestTimeout);
        }
        if (retryBackoff.isNegative()) {
            throw new IllegalArgumentException("retryBackoff must not be negative, got " + retryBackoff);
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
        }
    }

    /** Defaults for Alertmanager at {@code url}. */
    public static AlertmanagerSinkOptions of(URI url) {
        return new AlertmanagerSinkOptions(url, "critical", Map.of(), null, Duration.ofSeconds(5), 3,
                Duration.ofMillis(200), null);
    }

    /** The address alerts are posted to. */
    public URI alertsEndpoint() {
        String s = url.toString();
        if (s.endsWith("/api/v2/alerts")) {
            return url;
        }
        return URI.create((s.endsWith("/") ? s : s + "/") + "api/v2/alerts");
    }

    @Override
    public AlertmanagerWebhookSink open() {
        return new AlertmanagerWebhookSink(this);
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds {@link AlertmanagerSinkOptions}; the record's constructor checks the values. */
    public static final class Builder {
        private URI url;
        private String severity;
        private Map<String, String> extraLabels;
        private String generatorUrl;
        private Duration requestTimeout;
        private int maxAttempts;
        private Duration retryBackoff;
        private ConsoleLink console;

        private Builder(AlertmanagerSinkOptions from) {
            url = from.url;
            severity = from.severity;
            extraLabels = from.extraLabels;
            generatorUrl = from.generatorUrl;
            requestTimeout = from.requestTimeout;
            maxAttempts = from.maxAttempts;
            retryBackoff = from.retryBackoff;
            console = from.console;
        }

        public Builder url(URI value) {
            url = value;
            return this;
        }

        public Builder severity(String value) {
            severity = value;
            return this;
        }

        public Builder extraLabels(Map<String, String> value) {
            extraLabels = value;
            return this;
        }

        public Builder generatorUrl(String value) {
            generatorUrl = value;
            return this;
        }

        public Builder requestTimeout(Duration value) {
            requestTimeout = value;
            return this;
        }

        public Builder maxAttempts(int value) {
            maxAttempts = value;
            return this;
        }

        public Builder retryBackoff(Duration value) {
            retryBackoff = value;
            return this;
        }

        public Builder console(ConsoleLink value) {
            console = value;
            return this;
        }

        public AlertmanagerSinkOptions build() {
            return new AlertmanagerSinkOptions(url, severity, extraLabels, generatorUrl, requestTimeout, maxAttempts,
                    retryBackoff, console);
        }
    }
}
