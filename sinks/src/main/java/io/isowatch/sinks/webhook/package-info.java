/**
 * Alerts posted to Prometheus Alertmanager's API v2 ({@code POST /api/v2/alerts}), so findings
 * route, group, silence and notify like any other alert.
 */
package io.isowatch.sinks.webhook;
