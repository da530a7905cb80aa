package io.isowatch.cli;

import io.isowatch.job.CheckerJob;
import io.isowatch.job.JobOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** The local Flink cluster (a MiniCluster in the launcher's JVM) that {@code job} and {@code demo} run on. */
final class LocalFlink {

    static final String PROMETHEUS_FACTORY = "org.apache.flink.metrics.prometheus.PrometheusReporterFactory";

    private LocalFlink() {
    }

    /**
     * The job's configuration, plus Flink's Prometheus reporter on {@code metricsPort} when it is
     * not negative, and the {@link RestartCounter} that {@link JobWatch} reads. The MiniCluster shares one metric registry among its job manager and task
     * manager, so one port serves every metric of the job, the checker's among them.
     */
    static StreamExecutionEnvironment environment(JobOptions options, int metricsPort) {
        Configuration conf = RestartCounter.configure(CheckerJob.flinkConfiguration(options));
        if (metricsPort >= 0) {
            conf.setString("metrics.reporter.prom.factory.class", PROMETHEUS_FACTORY);
            conf.setString("metrics.reporter.prom.port", Integer.toString(metricsPort));
        }
        return StreamExecutionEnvironment.getExecutionEnvironment(conf);
    }
}
