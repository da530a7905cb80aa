package org.apache.flink.metrics.prometheus;

import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.HTTPServer;
import org.apache.flink.util.PortRange;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Iterator;

/**
 * Flink's Prometheus reporter, with its HTTP server listening on one address. Flink's own
 * {@code PrometheusReporter} (flink-metrics-prometheus 2.2.1) takes a port and no host and binds
 * every interface; this one differs from it in nothing else, so the metrics keep Flink's names.
 *
 * <p>It sits in Flink's package because the registry the superclass fills is package-private:
 * this way a Flink upgrade that changes it fails the build, not a running demo. Created by
 * {@code io.isowatch.localpipeline.BoundPrometheusReporterFactory}.
 */
public final class BoundPrometheusReporter extends AbstractPrometheusReporter {

    private final HTTPServer server;
    private final int port;

    /**
     * Serves on {@code address}, on the first free port of {@code ports}.
     *
     * @throws IllegalStateException when every port of the range is taken
     */
    public BoundPrometheusReporter(InetAddress address, PortRange ports) {
        this.server = start(address, ports, registry);
        this.port = server.getPort();
        log.info("Serving Flink's metrics for Prometheus on {}:{}", address.getHostAddress(), port);
    }

    private static HTTPServer start(InetAddress address, PortRange ports, CollectorRegistry registry) {
        IOException last = null;
        Iterator<Integer> candidates = ports.getPortsIterator();
        while (candidates.hasNext()) {
            try {
                return new HTTPServer(new InetSocketAddress(address, candidates.next()), registry);
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IllegalStateException("cannot serve Flink's metrics on " + address.getHostAddress() + " port(s) "
                + ports + (last == null ? "" : ": " + last.getMessage()) + "; choose another --metrics-port", last);
    }

    /** The port served on. */
    public int port() {
        return port;
    }

    @Override
    public void close() {
        server.stop();
        super.close();
    }
}
