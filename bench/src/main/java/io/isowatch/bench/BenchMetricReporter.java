package io.isowatch.bench;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Flink metric reporter that keeps every metric of the local cluster in a JVM-wide registry,
 * so that {@link StreamBenchmark}, running in the same JVM as its MiniCluster, reads the job's
 * own counters (the checker's {@code transactions_checked}, the job's checkpoint sizes) instead
 * of estimating them. Registered with {@link #configure}; Flink finds the factory through
 * {@code META-INF/services}.
 *
 * <p>Thread-safe: Flink adds and removes metrics on its threads, the benchmark reads on its own.
 */
public final class BenchMetricReporter implements MetricReporter {

    /** The factory Flink instantiates; named in {@code metrics.reporter.bench.factory.class}. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new BenchMetricReporter();
        }
    }

    private record Registered(String name, String operator, Map<String, String> variables, Metric metric) {
    }

    private static final Map<String, Registered> METRICS = new ConcurrentHashMap<>();

    /** Adds this reporter to a Flink configuration. */
    public static void configure(org.apache.flink.configuration.Configuration conf) {
        conf.setString("metrics.reporter.bench.factory.class", Factory.class.getName());
        conf.setString("metrics.reporters", "bench");
    }

    @Override
    public void open(MetricConfig config) {
    }

    @Override
    public void close() {
    }

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        Map<String, String> vars = group.getAllVariables();
        String operator = vars.getOrDefault("<operator_name>", vars.getOrDefault("<task_name>", ""));
        METRICS.put(group.getMetricIdentifier(metricName), new Registered(metricName, operator, vars, metric));
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        METRICS.remove(group.getMetricIdentifier(metricName));
    }

    /** The sum over all registered counters and numeric gauges of this name (all subtasks); 0 when none. */
    public static long sum(String metricName) {
        return sum(metricName, "");
    }

    /**
     * As {@link #sum(String)}, restricted to operators whose name contains {@code operator}.
     * Per-history breakdowns (the checker's {@code history} group) are left out, so a total is
     * not counted twice.
     */
    public static long sum(String metricName, String operator) {
        long total = 0;
        for (Registered r : METRICS.values()) {
            if (r.name.equals(metricName) && r.operator.contains(operator) && !r.variables.containsKey("<history>")) {
                OptionalDouble v = value(r.metric);
                if (v.isPresent()) {
                    total += (long) v.getAsDouble();
                }
            }
        }
        return total;
    }

    /**
     * Sums of a numeric metric grouped by one of its scope variables (e.g. RocksDB's
     * {@code <column_family>}, which is the state's name), over all operators and subtasks.
     */
    public static Map<String, Long> sumBy(String metricName, String variable) {
        Map<String, Long> out = new TreeMap<>();
        for (Registered r : METRICS.values()) {
            String group = r.variables.get(variable);
            if (r.name.equals(metricName) && group != null) {
                OptionalDouble v = value(r.metric);
                if (v.isPresent()) {
                    out.merge(group, (long) v.getAsDouble(), Long::sum);
                }
            }
        }
        return out;
    }

    /** The smallest value of a numeric metric over its instances, or empty (e.g. a watermark over subtasks). */
    public static OptionalDouble min(String metricName, String operator) {
        double min = Double.NaN;
        for (Registered r : METRICS.values()) {
            if (r.name.equals(metricName) && r.operator.contains(operator)) {
                OptionalDouble v = value(r.metric);
                if (v.isPresent() && (Double.isNaN(min) || v.getAsDouble() < min)) {
                    min = v.getAsDouble();
                }
            }
        }
        return Double.isNaN(min) ? OptionalDouble.empty() : OptionalDouble.of(min);
    }

    /** Every histogram of this name (one per subtask). */
    public static List<Histogram> histograms(String metricName) {
        List<Histogram> out = new ArrayList<>();
        for (Registered r : METRICS.values()) {
            if (r.name.equals(metricName) && r.metric instanceof Histogram h) {
                out.add(h);
            }
        }
        return out;
    }

    private static OptionalDouble value(Metric m) {
        if (m instanceof Counter c) {
            return OptionalDouble.of(c.getCount());
        }
        if (m instanceof Gauge<?> g) {
            Object v = g.getValue();
            if (v instanceof Number n) {
                return OptionalDouble.of(n.doubleValue());
            }
        }
        return OptionalDouble.empty();
    }
}
