package io.isowatch.localpipeline;

import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A metric reporter of the local cluster that keeps one metric, each job's {@code numRestarts}
 * gauge, for the launcher's job watch in the same JVM. The job's status alone does not show every
 * restart: a job that fails at once after a restart is RUNNING for less time than any poll sees.
 * Registered with {@link #configure}; Flink finds the factory through {@code META-INF/services}.
 */
public final class RestartCounter implements MetricReporter {

    private static final String NAME = "isowatch-restarts";
    private static final String RESTARTS = "numRestarts";
    private static final Map<String, Gauge<?>> BY_JOB = new ConcurrentHashMap<>();

    /** The factory Flink instantiates; named in {@code metrics.reporter.isowatch-restarts.factory.class}. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new RestartCounter();
        }
    }

    /** Adds this reporter to a local cluster's configuration (beside any other reporter). */
    static Configuration configure(Configuration conf) {
        conf.setString("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
        return conf;
    }

    /** How often the job restarted so far; 0 before its metric is registered. */
    public static long restarts(JobID job) {
        Gauge<?> gauge = BY_JOB.get(job.toHexString());
        return gauge != null && gauge.getValue() instanceof Number n ? n.longValue() : 0;
    }

    @Override
    public void open(MetricConfig config) {
    }

    @Override
    public void close() {
    }

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        String job = group.getAllVariables().get("<job_id>");
        if (RESTARTS.equals(metricName) && job != null && metric instanceof Gauge<?> gauge) {
            BY_JOB.put(job, gauge);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        String job = group.getAllVariables().get("<job_id>");
        if (RESTARTS.equals(metricName) && job != null) {
            BY_JOB.remove(job, metric);
        }
    }
}
