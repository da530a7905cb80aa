package io.isowatch.localpipeline;

import io.isowatch.job.CheckerJob;
import io.isowatch.job.JobOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * The local Flink cluster (a MiniCluster in this JVM) that {@code isowatch job}, the
 * {@link LocalPipeline} of {@code demo}, {@code replay} and the stream benchmark run on,
 * listening on one address only.
 *
 * <p>What a MiniCluster opens (seen with {@code ss -ltnp} during a demo): the REST endpoint (the
 * web UI, and the API that cancels jobs), the blob server, and the metrics reporter's HTTP server
 * when asked for. Its RPC is local (no port) and its one TaskManager exchanges data in memory (no
 * data port). Left to Flink, the REST endpoint and the blob server bind every interface.
 */
public final class LocalFlink {

    private static final String REPORTER = "metrics.reporter.prom.";

    private LocalFlink() {
    }

    /**
     * The job's configuration, every port on {@code bind}, plus a Prometheus reporter on
     * {@code metricsPort} when it is not negative, and the {@link RestartCounter} that the
     * launcher's job watch reads. The MiniCluster shares one metric registry
     * among its job manager and task manager, so one port serves every metric of the job, the
     * checker's among them.
     */
    public static StreamExecutionEnvironment environment(JobOptions options, int metricsPort, InetAddress bind) {
        return environment(options, metricsPort, bind, new Configuration());
    }

    /** As {@link #environment(JobOptions, int, InetAddress)}, with {@code flinkSettings} set last. */
    static StreamExecutionEnvironment environment(JobOptions options, int metricsPort, InetAddress bind,
                                                  Configuration flinkSettings) {
        Configuration conf = RestartCounter.configure(CheckerJob.flinkConfiguration(options));
        String host = bind.getHostAddress();
        conf.set(RestOptions.BIND_ADDRESS, host);
        // A free port chosen here rather than by Flink, so the web UI's address can be printed.
        conf.set(RestOptions.PORT, freePort(bind));
        conf.set(JobManagerOptions.BIND_HOST, host); // the blob server
        conf.set(TaskManagerOptions.BIND_HOST, host);
        // The addresses clients are told; for a wildcard bind, this machine's loopback.
        String advertised = bind.isAnyLocalAddress() ? InetAddress.getLoopbackAddress().getHostAddress() : host;
        conf.set(RestOptions.ADDRESS, advertised);
        conf.set(JobManagerOptions.ADDRESS, advertised);
        conf.set(TaskManagerOptions.HOST, advertised);
        if (metricsPort >= 0) {
            conf.setString(REPORTER + "factory.class", BoundPrometheusReporterFactory.class.getName());
            conf.setString(REPORTER + BoundPrometheusReporterFactory.PORT, Integer.toString(metricsPort));
            conf.setString(REPORTER + BoundPrometheusReporterFactory.HOST, host);
            // Label values as they are: the delay histogram's le="0.05" and le="+Inf" (which the
            // default filter would turn into "0_05" and "_Inf") and anomaly="G2-item".
            conf.setString(REPORTER + "filterLabelValueCharacters", "false");
        }
        conf.addAll(flinkSettings);
        return StreamExecutionEnvironment.getExecutionEnvironment(conf);
    }

    /** The web UI (and REST API) of the cluster {@code env} runs on, e.g. {@code http://127.0.0.1:34567/}. */
    public static String webUi(StreamExecutionEnvironment env) {
        String host = env.getConfiguration().get(RestOptions.ADDRESS);
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + env.getConfiguration().get(RestOptions.PORT)
                + "/";
    }

    private static int freePort(InetAddress bind) {
        try (ServerSocket socket = new ServerSocket(0, 1, bind)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on " + bind.getHostAddress() + ": " + e.getMessage(), e);
        }
    }
}
