/**
 * Where findings go once the checker has proven them: an {@link io.isowatch.sinks.AlertSink}
 * takes one {@link io.isowatch.sinks.Alert} at a time (the finding, its stable id, the models
 * checked, when it was detected and how long after its last transaction completed).
 *
 * <p>Implementations, one package each, each with its own options record:
 * {@link io.isowatch.sinks.file.JsonLinesAlertSink} (a JSON-lines file),
 * {@link io.isowatch.sinks.console.ConsoleAlertSink} (text on a stream),
 * and {@link io.isowatch.sinks.webhook.AlertmanagerWebhookSink} (Alertmanager's {@code POST /api/v2/alerts}).
 * The file sink and the job's alerts topic write the same JSON object, {@link io.isowatch.sinks.AlertJson}.
 *
 * <p>Where a findings console runs ({@code isowatch ui}), a {@link io.isowatch.sinks.ConsoleLink}
 * names each finding's page; the file, console and Alertmanager sinks and the job's alerts topic
 * then carry that link.
 *
 * <p>Repeats are harmless by design: an alert's id is {@link io.isowatch.anomaly.FindingId}, the
 * same for the same anomaly however often or from wherever it is reported, so every consumer
 * de-duplicates by it.
 */
package io.isowatch.sinks;
