package io.isowatch.cli;

import io.isowatch.localpipeline.RestartCounter;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;

import java.io.PrintWriter;
import java.time.Duration;

/**
 * Watches a running checker job from the command that started it, so that what happens to the
 * job is said at once, in one line: each restart (with its count, from {@link RestartCounter},
 * which the job's local cluster must be configured with), and its end when it fails or is
 * cancelled (from the job's result). A daemon thread, ended by {@link #close()}.
 */
final class JobWatch implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(250);

    private final JobClient job;
    private final PrintWriter err;
    private final String command;
    private final Runnable onEnd;
    private final Thread thread;
    private volatile boolean closed;
    private volatile int restarts;
    private volatile JobStatus ended;

    /**
     * @param command the command's name for its lines ({@code isowatch job})
     * @param onEnd   run once when the job reaches a terminal status while watched
     */
    private JobWatch(JobClient job, PrintWriter err, String command, Runnable onEnd) {
        this.job = job;
        this.err = err;
        this.command = command;
        this.onEnd = onEnd;
        this.thread = new Thread(this::watch, "isowatch-job-watch");
        thread.setDaemon(true);
    }

    static JobWatch start(JobClient job, PrintWriter err, String command, Runnable onEnd) {
        JobWatch watch = new JobWatch(job, err, command, onEnd);
        watch.thread.start();
        return watch;
    }

    /** How often the job restarted while watched. */
    int restarts() {
        return restarts;
    }

    /** The terminal status the job reached while watched, or null while it runs. */
    JobStatus ended() {
        return ended;
    }

    private void watch() {
        job.getJobExecutionResult().whenComplete((result, failure) -> {
            ended = failure == null ? JobStatus.FINISHED
                    : isCancellation(failure) ? JobStatus.CANCELED : JobStatus.FAILED;
            if (!closed) {
                onEnd.run();
            }
        });
        long seen = 0;
        while (!closed && ended == null) {
            long now = RestartCounter.restarts(job.getJobID());
            if (now > seen) {
                seen = now;
                restarts = (int) now;
                say("the checker job failed and restarts from its latest checkpoint (restart " + now
                        + "); the cause is in the log above");
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Whether the job's failure says it was cancelled rather than failed. */
    static boolean isCancellation(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getClass().getSimpleName().equals("JobCancellationException")) {
                return true;
            }
        }
        return false;
    }

    private void say(String line) {
        synchronized (err) {
            err.println(command + ": " + line);
            err.flush();
        }
    }

    /** Why the job ended, in one line: the deepest cause of its failure, or that it was cancelled. */
    static String cause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + root.getMessage();
        return message.lines().findFirst().orElse(message);
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
