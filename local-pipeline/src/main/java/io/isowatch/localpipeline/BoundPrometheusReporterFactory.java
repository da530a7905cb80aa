package io.isowatch.localpipeline;

import org.apache.flink.metrics.prometheus.BoundPrometheusReporter;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;
import org.apache.flink.util.PortRange;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Properties;

/**
 * Creates the local cluster's Prometheus reporter ({@link BoundPrometheusReporter}), which takes
 * {@value #HOST} beside Flink's {@value #PORT}: {@code metrics.reporter.<name>.host}. Flink finds
 * the factory through {@code META-INF/services}; {@link LocalFlink} names it.
 */
public final class BoundPrometheusReporterFactory implements MetricReporterFactory {

    static final String HOST = "host";
    static final String PORT = "port";

    @Override
    public MetricReporter createMetricReporter(Properties properties) {
        String host = properties.getProperty(HOST, "127.0.0.1");
        try {
            return new BoundPrometheusReporter(InetAddress.getByName(host),
                    new PortRange(properties.getProperty(PORT, "9249")));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("metrics reporter host: unknown address " + host, e);
        }
    }
}
