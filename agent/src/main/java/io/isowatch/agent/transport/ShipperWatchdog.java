package io.isowatch.agent.transport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Watches a {@link KafkaShipper} from a thread of its own and makes a stall loud: one line naming
 * the cause and the fix when shipping cannot proceed, the same line again every
 * {@link ShipperOptions#stallWarningInterval()} while it lasts, and one when shipping resumes.
 *
 * <p>A separate thread because the shipper's own thread is the one stuck: a send to a missing
 * topic waits up to {@code max.block.ms} for metadata, a round to a stopped broker up to
 * {@code delivery.timeout.ms}, minutes by default. The shipper is <em>stalled</em> when
 * <ul>
 *   <li>the check at start finds the topic missing or Kafka unreachable ({@link TopicCheck}),
 *       reported within seconds even before any event waits; or</li>
 *   <li>events wait and no round has been acknowledged, nor the spool found caught up, for
 *       {@link ShipperOptions#stallTimeout()}.</li>
 * </ul>
 * It stops being stalled when a round is acknowledged, or when nothing waits and the topic check
 * passes. The cause comes from a fresh topic check, else from the last failed round.
 * Thread-safe: the shipper reports from its thread, readers ask from any.
 */
final class ShipperWatchdog implements AutoCloseable {

    private final TopicCheck check;
    private final String topic;
    private final Path spool;
    private final LongSupplier backlog;
    private final long stallNanos;
    private final long warnNanos;
    private final long pollNanos;
    private final Consumer<String> notices;
    private final Thread thread;

    private volatile boolean running = true;
    private volatile long lastProgress = System.nanoTime();
    private final AtomicLong acks = new AtomicLong();
    private volatile String lastError;
    private volatile String stallReason;
    // watchdog thread only
    private long stalledSince;
    private long acksAtStall;
    private long lastWarning;

    ShipperWatchdog(TopicCheck check, String topic, Path spool, LongSupplier backlog, ShipperOptions options,
                    Consumer<String> notices) {
        this.check = check;
        this.topic = topic;
        this.spool = spool;
        this.backlog = backlog;
        this.stallNanos = options.stallTimeout().toNanos();
        this.warnNanos = options.stallWarningInterval().toNanos();
        this.pollNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(50),
                Math.min(TimeUnit.SECONDS.toNanos(1), stallNanos / 4));
        this.notices = notices;
        this.thread = new Thread(this::run, "isowatch-shipper-watch-" + topic);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** The shipper found nothing new to ship: it is keeping up. */
    void caughtUp() {
        lastProgress = System.nanoTime();
    }

    /** Kafka acknowledged a round. */
    void acknowledged() {
        lastProgress = System.nanoTime();
        acks.incrementAndGet();
    }

    /** A round failed and will be re-sent. */
    void failed(Exception e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        lastError = cause.toString();
    }

    boolean stalled() {
        return stallReason != null;
    }

    /** Why shipping is stalled, in one line, or null while it ships. */
    String stallReason() {
        return stallReason;
    }

    private void run() {
        try {
            String problem = check.problem();
            if (problem != null && running) {
                stall(problem, System.nanoTime(), acks.get());
            }
            while (running && !Thread.currentThread().isInterrupted()) {
                LockSupport.parkNanos(pollNanos);
                if (running) {
                    step(System.nanoTime());
                }
            }
        } finally {
            check.close();
        }
    }

    private void step(long now) {
        if (stallReason == null) {
            if (backlog.getAsLong() > 0 && now - lastProgress > stallNanos) {
                long acksBefore = acks.get(); // before the check, which takes a while: an ack meanwhile ends the stall
                stall(cause(now), now, acksBefore);
            }
            return;
        }
        if (acks.get() > acksAtStall || backlog.getAsLong() == 0 && check.problem() == null) {
            String line = String.format(Locale.ROOT, "shipping to topic '%s' resumed after %s; %,d event(s) to"
                    + " catch up", topic, seconds(now - stalledSince), backlog.getAsLong());
            stallReason = null;
            notices.accept(line);
            return;
        }
        if (now - lastWarning >= warnNanos) {
            stallReason = cause(now);
            lastWarning = now;
            notices.accept(String.format(Locale.ROOT, "shipping still stalled after %s: %s; %,d event(s) wait in"
                    + " the spool %s, retrying", seconds(now - stalledSince), stallReason, backlog.getAsLong(), spool));
        }
    }

    private void stall(String reason, long now, long acksBefore) {
        stalledSince = now;
        acksAtStall = acksBefore;
        lastWarning = now;
        stallReason = reason;
        notices.accept(String.format(Locale.ROOT, "shipping stalled: %s; %,d event(s) wait in the spool %s, retrying",
                reason, backlog.getAsLong(), spool));
    }

    /** A fresh topic check's finding, else how long no round was acknowledged and the last error. */
    private String cause(long now) {
        String problem = check.problem();
        if (problem != null) {
            return problem;
        }
        String error = lastError;
        return "no round acknowledged by Kafka for " + seconds(now - lastProgress) + " though topic '" + topic
                + "' exists" + (error == null ? "" : " (last error: " + error + ")");
    }

    private static String seconds(long nanos) {
        return Duration.ofNanos(nanos).toSeconds() + " s";
    }

    /** Stops watching, cutting short a topic check under way, and waits for the thread to end. */
    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(TopicCheck.TIMEOUT.toMillis() + 2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
