package io.isowatch.cli;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Watches a running checker job from the command that started it, so that what happens to the
 * job is said at once, in one line: each restart (with its count), and its end when it fails or
 * is cancelled. Polls the job's status; a daemon thread, ended by {@link #close()}.
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
        JobStatus last = null;
        while (!closed) {
            JobStatus status = status();
            if (status != null && status != last) {
                if (status == JobStatus.RESTARTING) {
                    restarts++;
                    say("the checker job failed and restarts from its latest checkpoint (restart " + restarts
                            + "); the cause is in the log above");
                } else if (status.isGloballyTerminalState()) {
                    ended = status;
                    if (!closed) {
                        onEnd.run();
                    }
                    return;
                }
                last = status;
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private JobStatus status() {
        try {
            return job.getJobStatus().get(POLL.toMillis() * 4, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            // A job that has ended and been cleaned up no longer answers; its result says how it ended.
            return null;
        }
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
