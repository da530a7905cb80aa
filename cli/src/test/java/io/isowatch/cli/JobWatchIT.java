package io.isowatch.cli;

import io.isowatch.job.JobOptions;
import io.isowatch.localpipeline.LocalFlink;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job that keeps failing, on the launcher's local cluster with the job's Flink configuration: each restart is one line, the
 * restarts stop at {@code max-restarts}, and the end is reported once. A real local cluster; the
 * failure is a task that throws.
 */
class JobWatchIT {

    @Test
    void failingJob_restartsMaxRestartsTimesEachSaidInOneLine_thenEnds() throws Exception {
        JobOptions options = JobOptions.defaultOptions().with(JobOptions.MAX_RESTARTS, "2")
                .with(JobOptions.RESTART_WINDOW, "10m").with(JobOptions.CHECKPOINT_INTERVAL, "0");
        StreamExecutionEnvironment env = LocalFlink.environment(options, -1, java.net.InetAddress.getLoopbackAddress());
        // One event, so the cause is the same whichever subtask the source hands it to.
        env.fromData(1).map(JobWatchIT::fail, Types.INT).sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("always failing");
        StringWriter err = new StringWriter();
        CountDownLatch ended = new CountDownLatch(1);
        try (JobWatch watch = JobWatch.start(job, new PrintWriter(err, true), "isowatch job", ended::countDown)) {
            ExecutionException failure = assertThrows(ExecutionException.class,
                    () -> job.getJobExecutionResult().get(120, TimeUnit.SECONDS));
            assertTrue(ended.await(10, TimeUnit.SECONDS), "the end was not reported: " + err);
            assertEquals(JobStatus.FAILED, watch.ended());
            assertEquals(2, watch.restarts(), err.toString());
            assertEquals(2, err.toString().lines().filter(l -> l.startsWith("isowatch job: the checker job failed and "
                    + "restarts from its latest checkpoint (restart ")).count(), err.toString());
            assertEquals("IllegalStateException: poison event 1", JobWatch.cause(failure));
        }
    }

    private static int fail(int value) {
        throw new IllegalStateException("poison event " + value);
    }
}
