package io.isowatch.agent.transport;

import io.isowatch.agent.metrics.AgentMetrics;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.OpAtoms;
import io.isowatch.history.codec.BinaryEventCodec;
import io.isowatch.history.codec.HistoryEventJson;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Ships the events of a {@link ChronicleHistoryLog} to a Kafka topic on a background thread,
 * resuming from the spool's acknowledged position.
 *
 * <p><b>Records</b> ({@link ShippedRecords}). Key: the agent id, so the default partitioner keeps
 * the agent's whole history in one partition, in spool order. Value: the event in the spool's
 * binary form, or, with {@link RecordFormat#JSON}, as a Jepsen op map in JSON with {@code agent}
 * and {@code seq} fields ({@link HistoryEventJson}). Headers
 * {@value #AGENT_HEADER} (the agent id, UTF-8) and {@value #SEQ_HEADER} (the sequence in
 * decimal), so a consumer can deduplicate without parsing the value; and, when the agent records
 * a history with others ({@link ShipperOptions#history()}), {@value HistoryEvent#HISTORY_HEADER}
 * (its name, UTF-8) on every record, which the job keys by. The key stays the agent id: one
 * agent's events still lie in one partition, in its order.
 *
 * <p><b>Delivery.</b> The producer is idempotent with {@code acks=all}, so retries inside one
 * producer session neither duplicate nor reorder records of a partition. The shipper works in
 * rounds: it sends up to {@link ShipperOptions#maxEventsPerRound()} events, waits for Kafka to
 * acknowledge all of them ({@code flush}), and only then advances the spool's acknowledged
 * position. If any record of a round fails, the producer is discarded and the round is re-sent
 * from the acknowledged position after a back-off. Across such failures and across restarts
 * the guarantee is therefore at-least-once: an event can arrive twice, always with the same
 * {@code (agent, seq)} and byte-identical value, and a consumer that keeps the first copy of
 * each identity sees every event exactly once, the agent's events in order.
 *
 * <p><b>Outages.</b> While Kafka is unreachable the shipper's round waits (up to
 * {@link ShipperOptions#deliveryTimeout()}, then it fails and is retried with back-off); the
 * recorder is unaffected because appending to the spool never touches the network, and the
 * backlog grows on disk. When Kafka returns, the backlog drains at full speed.
 *
 * <p><b>Faults are loud.</b> A {@link ShipperWatchdog} checks the topic at start and watches for
 * progress: a missing topic, unreachable brokers, or events waiting with no round acknowledged
 * for {@link ShipperOptions#stallTimeout()} give one line naming the cause and the fix (to the
 * notices consumer given at start), repeated while the stall lasts, the gauge
 * {@code isowatch_agent_shipper_stalled} at 1, and {@link #stallReason()}. Shipping keeps being
 * retried throughout.
 *
 * <p><b>Corrupt records.</b> A spool record that cannot be decoded (damaged bytes, or written by
 * a newer isowatch) is set aside ({@link ChronicleHistoryLog#quarantine}) and shipping continues
 * after it; the acknowledged position moves past it, so it is not met again. Thread-safe.
 */
public final class KafkaShipper implements AutoCloseable {

    /** The header carrying the agent id. */
    public static final String AGENT_HEADER = "agent";
    /** The header carrying the event's sequence number in decimal. */
    public static final String SEQ_HEADER = "seq";

    private static final Logger LOG = LoggerFactory.getLogger(KafkaShipper.class);
    /** How long {@link #close()} waits for the round of a stalled shipper. */
    private static final long STALLED_CLOSE_MILLIS = 500;
    /** The decoding table is replaced after this many string atoms, bounding its memory. */
    private static final int MAX_INTERNED_STRINGS = 100_000;

    private final ChronicleHistoryLog spool;
    private final String topic;
    private final ShipperOptions options;
    private final AgentMetrics metrics;
    private final Map<String, Object> producerConfig;
    private final Thread thread;
    private final AtomicLong shipped = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicReference<Producer<byte[], byte[]>> producer = new AtomicReference<>();
    private final ShippedRecords records;
    private final ShipperWatchdog watchdog;

    private volatile boolean running = true;
    private volatile Throwable failure;
    private int internedStrings;

    private KafkaShipper(ChronicleHistoryLog spool, String bootstrapServers, String topic, ShipperOptions options,
                         AgentMetrics metrics, Consumer<String> notices) {
        this.spool = spool;
        this.topic = topic;
        this.records = new ShippedRecords(topic, options.recordFormat());
        this.options = options;
        this.metrics = metrics;
        this.producerConfig = producerConfig(bootstrapServers, spool, options);
        this.watchdog = new ShipperWatchdog(new TopicCheck(bootstrapServers, topic, options.producerProperties()),
                topic, spool.directory(), spool::backlog, options, notices);
        this.thread = new Thread(this::run, "isowatch-shipper-" + topic);
        thread.setDaemon(true);
    }

    /** Starts shipping {@code spool} to {@code topic} with default options. */
    public static KafkaShipper start(ChronicleHistoryLog spool, String bootstrapServers, String topic,
                                     AgentMetrics metrics) {
        return start(spool, bootstrapServers, topic, ShipperOptions.defaults(), metrics);
    }

    /**
     * As {@link #start(ChronicleHistoryLog, String, String, ShipperOptions, AgentMetrics, Consumer)},
     * logging faults at WARN.
     */
    public static KafkaShipper start(ChronicleHistoryLog spool, String bootstrapServers, String topic,
                                     ShipperOptions options, AgentMetrics metrics) {
        return start(spool, bootstrapServers, topic, options, metrics, notice -> LOG.warn("{}", notice));
    }

    /**
     * Starts shipping {@code spool} to {@code topic}. Returns at once; connecting happens on the
     * shipper's thread, so an unreachable cluster is not an error here: the watchdog reports it
     * to {@code notices} within seconds.
     *
     * @param metrics counts shipped events, errors and quarantined records, and exports the spool
     *                backlog and whether shipping is stalled; may be null
     * @param notices receives one line per stall, repeat warning and recovery
     */
    public static KafkaShipper start(ChronicleHistoryLog spool, String bootstrapServers, String topic,
                                     ShipperOptions options, AgentMetrics metrics, Consumer<String> notices) {
        Objects.requireNonNull(spool, "spool");
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(options, "options");
        if (topic.isEmpty()) {
            throw new IllegalArgumentException("topic must not be empty");
        }
        Objects.requireNonNull(notices, "notices");
        KafkaShipper shipper = new KafkaShipper(spool, bootstrapServers, topic, options, metrics, notices);
        if (metrics != null) {
            metrics.spoolBacklog(spool::backlog); // the same gauge the spool registers; a repeat replaces it
            metrics.shipperStalled(shipper.watchdog::stalled);
        }
        spool.attach(shipper);
        shipper.watchdog.start();
        shipper.thread.start();
        return shipper;
    }

    private static Map<String, Object> producerConfig(String bootstrapServers, ChronicleHistoryLog spool,
                                                      ShipperOptions options) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "isowatch-shipper");
        config.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 64L * 1024 * 1024);
        long linger = options.linger().toMillis();
        long delivery = options.deliveryTimeout().toMillis();
        // delivery.timeout.ms must cover linger.ms + request.timeout.ms.
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(1, Math.min(30_000, delivery - linger)));
        config.putAll(options.producerProperties());
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        config.put(ProducerConfig.LINGER_MS_CONFIG, (int) linger);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, options.batchSizeBytes());
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, options.compression());
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, delivery));
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, options.maxBlock().toMillis());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return Map.copyOf(config);
    }

    // ---- the shipping thread ----

    private void run() {
        BinaryEventCodec codec = new BinaryEventCodec(new AtomTable());
        long backoff = options.retryBackoff().toNanos();
        try (SpoolTailer tailer = spool.tailerFromAcknowledged()) {
            LOG.info("Shipping spool {} to topic {} from index {}", spool.directory(), topic,
                    Long.toHexString(tailer.index()));
            while (running) {
                try {
                    int read = round(tailer, codec);
                    if (read == 0) {
                        watchdog.caughtUp();
                        LockSupport.parkNanos(options.idlePoll().toNanos());
                    } else {
                        watchdog.acknowledged();
                    }
                    backoff = options.retryBackoff().toNanos();
                } catch (KafkaException | RoundFailedException e) {
                    if (!running) {
                        break;
                    }
                    errors.incrementAndGet();
                    if (metrics != null) {
                        metrics.shipError();
                    }
                    watchdog.failed(e);
                    // INFO, not WARN: the watchdog says it loudly, once per stall and then periodically.
                    LOG.info("Shipping to {} failed, re-sending from index {} in {} ms: {}", topic,
                            Long.toHexString(spool.acknowledgedIndex()), TimeUnit.NANOSECONDS.toMillis(backoff),
                            e.getCause() != null ? e.getCause().toString() : e.toString());
                    discardProducer(Duration.ZERO);
                    tailer.rewind(spool.acknowledgedIndex());
                    LockSupport.parkNanos(backoff);
                    backoff = Math.min(backoff * 2, options.maxRetryBackoff().toNanos());
                }
                if (internedStrings > MAX_INTERNED_STRINGS) {
                    codec = new BinaryEventCodec(new AtomTable());
                    internedStrings = 0;
                }
            }
        } catch (RuntimeException | Error e) {
            if (running) {
                failure = e;
                LOG.error("Shipper for spool {} stopped: {}", spool.directory(), e.toString(), e);
            }
        } finally {
            running = false;
            discardProducer(options.closeTimeout());
            if (!spool.isClosed()) {
                try {
                    spool.syncAcknowledged();
                } catch (RuntimeException e) {
                    LOG.warn("Cannot persist the shipped position of {}: {}", spool.directory(), e.toString());
                }
            }
        }
    }

    /**
     * Sends up to one round of events and waits for all of them; returns how many records it
     * read, events sent and corrupt records set aside, and acknowledges them all in the spool.
     */
    private int round(SpoolTailer tailer, BinaryEventCodec codec) {
        Producer<byte[], byte[]> p = producer();
        AtomicReference<Exception> firstError = new AtomicReference<>();
        Callback callback = (metadata, exception) -> {
            if (exception != null) {
                firstError.compareAndSet(null, exception);
            }
        };
        int sent = 0;
        int read = 0;
        long last = ChronicleHistoryLog.NO_INDEX;
        while (read < options.maxEventsPerRound() && running) {
            HistoryEvent event;
            try {
                event = tailer.next(codec);
            } catch (CorruptRecordException e) {
                // Set aside, and acknowledged with the round: it is never shipped, nor met again.
                spool.quarantine(e);
                read++;
                last = e.index();
                continue;
            }
            if (event == null) {
                break;
            }
            internedStrings += OpAtoms.stringCount(event.op());
            if (options.history() != null) {
                event = event.inHistory(options.history());
            }
            p.send(records.record(event, codec.atoms()), callback);
            sent++;
            read++;
            last = tailer.index();
            if (firstError.get() != null) {
                break;
            }
        }
        if (read == 0) {
            return 0;
        }
        if (sent > 0) {
            p.flush();
        }
        Exception error = firstError.get();
        if (error != null) {
            throw new RoundFailedException(error);
        }
        // Counted before the spool's backlog drops, so that a drained backlog implies the count.
        shipped.addAndGet(sent);
        if (metrics != null) {
            metrics.eventsShipped(sent);
        }
        spool.acknowledge(last);
        return read;
    }

    private Producer<byte[], byte[]> producer() {
        Producer<byte[], byte[]> p = producer.get();
        if (p == null) {
            p = new KafkaProducer<>(producerConfig);
            producer.set(p);
        }
        return p;
    }

    private void discardProducer(Duration timeout) {
        Producer<byte[], byte[]> p = producer.getAndSet(null);
        if (p != null) {
            try {
                p.close(timeout);
            } catch (InterruptException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                LOG.debug("Closing the producer failed: {}", e.toString());
            }
        }
    }

    /** A record of the round was not acknowledged. */
    private static final class RoundFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RoundFailedException(Exception cause) {
            super(cause.getMessage(), cause);
        }
    }

    // ---- state and control ----

    /** Events acknowledged by Kafka since this shipper started. */
    public long shipped() {
        return shipped.get();
    }

    /** Failed rounds since this shipper started (each is retried). */
    public long errors() {
        return errors.get();
    }

    /** False once closed, or once stopped by a {@link #failure()}. */
    public boolean isRunning() {
        return running && thread.isAlive();
    }

    /** Why the shipper stopped on its own, or null. */
    public Throwable failure() {
        return failure;
    }

    /**
     * Why shipping is stalled, in one line naming the cause and the fix (a missing topic,
     * unreachable brokers, no progress), or null while it ships. Shipping is retried meanwhile.
     */
    public String stallReason() {
        return watchdog.stallReason();
    }

    /**
     * Stops shipping: lets the current round finish for up to
     * {@link ShipperOptions#closeTimeout()}, then abandons it (its events stay unacknowledged and
     * are re-sent by the next shipper), persists the acknowledged position, and closes the
     * producer. Does not close the spool; closing the spool closes its shippers first. Idempotent.
     */
    @Override
    public void close() {
        running = false;
        // A stalled round will not finish: abandon it at once rather than after closeTimeout.
        long patience = watchdog.stalled() ? Math.min(STALLED_CLOSE_MILLIS, options.closeTimeout().toMillis())
                : options.closeTimeout().toMillis();
        watchdog.close();
        LockSupport.unpark(thread);
        try {
            thread.join(Math.max(1, patience));
            if (thread.isAlive()) {
                // Abandon the round: closing the producer fails its pending sends, which ends flush().
                Producer<byte[], byte[]> p = producer.get();
                if (p != null) {
                    p.close(Duration.ZERO);
                }
                thread.interrupt();
                thread.join(TimeUnit.SECONDS.toMillis(10));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("Shipper thread for {} did not stop", spool.directory());
        }
        spool.detach(this);
    }
}
