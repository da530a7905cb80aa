package io.isowatch.bench;

import io.isowatch.agent.transport.RecordFormat;
import io.isowatch.agent.transport.ShippedRecords;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Feeds the history topic at a controlled rate from one thread, as several agents would: each
 * agent is its own {@link ListAppendGenerator} history (its own seed), and its events are sent in
 * round robin as the agents' shippers write them ({@link ShippedRecords}).
 *
 * <p><b>Times.</b> The generator's op times are replaced by the wall clock at send time, in epoch
 * nanoseconds (strictly increasing within an agent, as the recorder stamps them), so the job's
 * event time, watermarks and the alerts' detection delays refer to real time. The index, process
 * and values stay the generator's, so each agent's history remains a valid history whose only
 * anomalies are the injected stale reads. Each history's first event declares the agent protocol,
 * which the generator keeps as an agent does.
 *
 * <p><b>Rate.</b> Transactions (completions) are sent so that after {@code t} seconds about
 * {@code rate × t} have gone, except that arrears of more than one second's worth (a slow
 * start, a pause) are forgiven rather than made up by a burst, so a measurement window sees the
 * requested rate. An optional ramp climbs linearly from zero to the rate first, so a job starts
 * the way a deployment meets growing traffic rather than cold at full load. A rate of 0 sends
 * as fast as the producer accepts (its buffer blocks {@code send} once Kafka falls behind). The producer is idempotent with
 * {@code acks=all} and lz4, like the shipper's.
 */
final class HistoryFeeder implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final ShippedRecords records;
    private final ListAppendGenerator[] generators;
    private final String[] agents;
    private final long[] lastTime;
    private final long rate;
    private final double rampSeconds;
    private final Thread thread;
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomTable atoms = new AtomTable();
    private final long epochNanosAtStart;
    private final long nanoTimeAtStart;
    private volatile boolean running = true;
    private volatile Throwable failure;

    HistoryFeeder(String bootstrapServers, String topic, int agentCount, GeneratorOptions options, long rate,
                  Duration ramp, RecordFormat format) {
        this.records = new ShippedRecords(topic, format);
        this.rate = rate;
        this.rampSeconds = ramp.toMillis() / 1e3;
        this.generators = new ListAppendGenerator[agentCount];
        this.agents = new String[agentCount];
        this.lastTime = new long[agentCount];
        for (int i = 0; i < agentCount; i++) {
            generators[i] = new ListAppendGenerator(options.toBuilder().seed(options.seed() + i).build());
            agents[i] = "bench-agent-" + (i + 1);
        }
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.CLIENT_ID_CONFIG, "isowatch-bench-feeder",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4",
                ProducerConfig.BUFFER_MEMORY_CONFIG, 64L * 1024 * 1024,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class));
        this.epochNanosAtStart = System.currentTimeMillis() * 1_000_000L;
        this.nanoTimeAtStart = System.nanoTime();
        this.thread = new Thread(this::run, "isowatch-bench-feeder");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Events sent (handed to the producer) so far. */
    long events() {
        return events.get();
    }

    /** Transactions (completions) sent so far. */
    long transactions() {
        return transactions.get();
    }

    long errors() {
        return errors.get();
    }

    Throwable failure() {
        return failure;
    }

    private long epochNanos() {
        return epochNanosAtStart + (System.nanoTime() - nanoTimeAtStart);
    }

    private final Callback callback = (metadata, exception) -> {
        if (exception != null) {
            errors.incrementAndGet();
        }
    };

    private void run() {
        long start = System.nanoTime();
        long forgiven = 0;
        int next = 0;
        try {
            while (running) {
                if (rate > 0) {
                    long due = (long) (rate * rampedSeconds((System.nanoTime() - start) / 1e9)) - forgiven;
                    long sent = transactions.get();
                    if (due - sent > rate) {
                        // More than a second behind (start-up, a pause): forgive the arrears beyond
                        // one second instead of bursting above the rate for the rest of the run.
                        forgiven += due - sent - rate;
                        due = sent + rate;
                    }
                    if (sent >= due) {
                        LockSupport.parkNanos(100_000);
                        continue;
                    }
                }
                int a = next;
                next = (next + 1) % generators.length;
                send(a);
            }
        } catch (RuntimeException | Error e) {
            if (running) {
                failure = e;
            }
        }
    }

    /** Sends agent {@code a}'s next event, stamped with the wall clock. */
    private void send(int a) {
        Op generated = generators[a].next();
        long time = Math.max(lastTime[a] + 1, epochNanos());
        lastTime[a] = time;
        Op op = new Op(generated.index(), time, generated.type(), generated.process(), generated.value());
        HistoryEvent event = new HistoryEvent(agents[a], op.index(), op);
        if (op.index() == 0) {
            // The generator keeps the agent protocol as an agent does: each invocation before its effect.
            event = event.declaringAgentProtocol();
        }
        producer.send(records.record(event, atoms), callback);
        events.incrementAndGet();
        if (op.type() != OpType.INVOKE) {
            transactions.incrementAndGet();
        }
    }

    /**
     * Ends every agent's history as a stopped workload ends, then closes: no new transaction, the
     * outstanding ones complete, and every key written is read once more (closing reads), sent at
     * once rather than at the rate. A run measured over every finding ends this way, so that no
     * append is left unread at the end.
     */
    void finish() {
        stopSending();
        if (failure == null) {
            for (ListAppendGenerator g : generators) {
                g.endEarly();
            }
            for (boolean more = true; more; ) {
                more = false;
                for (int a = 0; a < generators.length; a++) {
                    if (generators[a].hasNext()) {
                        send(a);
                        more = true;
                    }
                }
            }
        }
        close();
    }

    private void stopSending() {
        running = false;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Seconds' worth of the target rate due after {@code t} seconds: the rate climbs linearly
     * from zero over the ramp, then holds.
     */
    private double rampedSeconds(double t) {
        return t < rampSeconds ? t * t / (2 * rampSeconds) : t - rampSeconds / 2;
    }

    /** Stops sending and flushes what the producer holds. */
    @Override
    public void close() {
        stopSending();
        producer.close(Duration.ofSeconds(30));
    }
}
