package io.isowatch.agent;

import io.isowatch.agent.client.ClientFactory;
import io.isowatch.agent.metrics.AgentMetrics;
import io.isowatch.agent.recorder.EventLog;
import io.isowatch.agent.recorder.HistoryMember;
import io.isowatch.agent.recorder.HistoryRecorder;
import io.isowatch.agent.recorder.JsonLinesEventLog;
import io.isowatch.agent.recorder.TeeEventLog;
import io.isowatch.agent.transport.ChronicleHistoryLog;
import io.isowatch.agent.transport.KafkaShipper;
import io.isowatch.agent.transport.ShipperOptions;
import io.isowatch.agent.workload.WorkloadOptions;
import io.isowatch.agent.workload.WorkloadResult;
import io.isowatch.agent.workload.WorkloadRunner;
import io.isowatch.history.HistoryEvent;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One running agent: the recorder writing to the spool and/or a JSON-lines file, the shipper
 * sending the spool to Kafka, the metrics, and workload runners that continue the spool's
 * history. {@code isowatch agent run} and {@code isowatch demo} both assemble the agent through
 * this class, so a run resumed from a spool numbers its events, processes and keys the same way
 * whichever command runs it.
 *
 * <p>A resumed spool fixes the agent id (its events' source), the next sequence number, and the
 * first process and key of the next run, so nothing recorded later can be mistaken for a re-send
 * or reuse a process that ended with an info. Before anything is recorded, the spool is read once
 * ({@link SpoolResume}): the history file is completed with what a crash kept from it, and each
 * transaction the crash left open is completed as info, so the history holds every transaction
 * whole. Not thread-safe: one owner starts, runs and closes
 * it; the recorder it hands out takes events from any number of client threads.
 */
public final class AgentRuntime implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AgentRuntime.class);
    /** How often {@link #drain} looks at the spool's backlog. */
    private static final long DRAIN_POLL_MILLIS = 20;

    private final String agentId;
    private final HistoryRecorder recorder;
    private final ChronicleHistoryLog spool;
    private final KafkaShipper shipper;
    private final HTTPServer metricsServer;
    /** Events an earlier run recorded into the resumed spool: where this run's numbering starts. */
    private final long earlierEvents;
    /**
     * Past every process the resumed spool names, and at least {@link #earlierEvents} for an
     * agent's own history; in a shared history, in the {@link #member}'s own numbers.
     */
    private final long firstProcess;
    /** This agent's place in a shared history, or null. */
    private final HistoryMember member;

    private AgentRuntime(String agentId, HistoryRecorder recorder, ChronicleHistoryLog spool, KafkaShipper shipper,
                         HTTPServer metricsServer, long earlierEvents, long firstProcess, HistoryMember member) {
        this.member = member;
        this.agentId = agentId;
        this.recorder = recorder;
        this.spool = spool;
        this.shipper = shipper;
        this.metricsServer = metricsServer;
        this.earlierEvents = earlierEvents;
        this.firstProcess = firstProcess;
    }

    /**
     * Opens the spool and the history file, starts the recorder, the shipper and the metrics
     * server; whatever was opened is closed again when a later step fails.
     *
     * @throws IllegalArgumentException when the spool belongs to another agent than the one asked for
     * @throws IllegalStateException    when Chronicle cannot run for want of the JVM's module flags
     */
    public static AgentRuntime start(AgentOptions options) {
        return start(options, notice -> LOG.warn("{}", notice));
    }

    /**
     * As {@link #start(AgentOptions)}, with what an operator must see going to {@code notices}, one
     * line each: the shipper's faults while they last (a missing topic, an unreachable broker, no
     * progress) and its recovery, a history file completed from the spool, transactions an
     * earlier run left open completed as info. {@code agent run} prints them on stderr.
     */
    public static AgentRuntime start(AgentOptions options, Consumer<String> notices) {
        Objects.requireNonNull(notices, "notices");
        PrometheusRegistry registry = new PrometheusRegistry();
        AgentMetrics metrics = new AgentMetrics(registry);
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            HTTPServer server = options.metricsPort() < 0 ? null : AgentMetrics.serve(registry, options.metricsAddress(),
                    options.metricsPort());
            if (server != null) {
                opened.add(server);
            }
            List<EventLog> logs = new ArrayList<>();
            ChronicleHistoryLog spool = null;
            SpoolResume.Result resumed = null;
            if (options.spoolDir() != null) {
                spool = openSpool(options.spoolDir(), metrics);
                logs.add(spool);
                opened.add(0, spool);
                resumed = SpoolResume.run(spool, options.historyOut(), CleanStop.take(options.spoolDir()));
                resumed.reportRead(notices);
            }
            if (options.historyOut() != null) {
                // With a spool, the file was just completed from it and is continued.
                JsonLinesEventLog file = spool == null ? JsonLinesEventLog.open(options.historyOut())
                        : JsonLinesEventLog.append(options.historyOut());
                logs.add(file);
                opened.add(0, file);
            }
            HistoryEvent last = resumed == null ? null : resumed.spool().last();
            String id = agentId(options, last);
            long earlier = last == null ? 0 : last.sequence() + 1;
            EventLog log = logs.isEmpty() ? new Discard() : logs.size() == 1 ? logs.get(0) : new TeeEventLog(logs);
            // The agent keeps the agent protocol (decision 0016): its runner invokes through the
            // recorder before each transaction runs, and a crash's open transactions end :info below.
            HistoryMember member = options.member();
            HistoryRecorder.Builder builder = HistoryRecorder.builder(id, log).metrics(metrics).firstSequence(earlier)
                    .declaresAgentProtocol(true).clockOffset(options.clockOffset());
            if (member != null) {
                builder.history(member.history(), member.member());
            }
            HistoryRecorder recorder = builder.build();
            opened.removeAll(logs); // the recorder closes its logs
            opened.add(0, recorder);
            long firstProcess = member == null ? earlier : 0;
            if (resumed != null) {
                long maxProcess = resumed.spool().maxProcess();
                checkMember(options, member, maxProcess);
                recorder.completeLeftOpen(resumed.spool().open());
                resumed.reportCompleted(notices);
                // A member's processes continue in its own numbers. They do not start past the event
                // count as an agent's own do: that would use up the member's 10^9 numbers after as
                // many events, and past the largest process the spool names is what matters.
                firstProcess = member == null ? Math.max(earlier, maxProcess + 1)
                        : maxProcess < 0 ? 0 : member.local(maxProcess) + 1;
            }
            KafkaShipper shipper = options.bootstrapServers() == null ? null
                    : KafkaShipper.start(spool, options.bootstrapServers(), options.topic(),
                            ShipperOptions.defaults().toBuilder().recordFormat(options.recordFormat())
                                    .history(member == null ? null : member.history()).build(), metrics, notices);
            return new AgentRuntime(id, recorder, spool, shipper, server, earlier, firstProcess, member);
        } catch (RuntimeException e) {
            Exception failedClose = closeAll(opened);
            if (failedClose != null) {
                e.addSuppressed(failedClose);
            }
            throw e;
        }
    }

    /** The id every event of this agent carries. */
    public String agentId() {
        return agentId;
    }

    /** Records the transactions of client code; {@link #runner} wires it to a workload. */
    public HistoryRecorder recorder() {
        return recorder;
    }

    /** The spool, or null when the agent has none. */
    public ChronicleHistoryLog spool() {
        return spool;
    }

    /** The port metrics are served on, or -1. */
    public int metricsPort() {
        return metricsServer == null ? -1 : metricsServer.getPort();
    }

    /** Events not yet shipped, for progress reports; null when the agent has no spool. */
    public LongSupplier backlog() {
        return spool == null ? null : spool::backlog;
    }

    /**
     * A runner of {@code workload} recording through this agent. Its processes start past every
     * process the spool names (and past its event count), so none of an earlier run invokes
     * again, least of all one that run left open and this one completed as info; its keys start
     * past every key that run can have touched ({@link #firstKey}), since a fresh store does not
     * hold them: {@code workload}'s first key plus that shift. In a shared history the processes
     * are the member's own numbers, which the runner maps ({@link HistoryMember}).
     */
    public WorkloadRunner runner(WorkloadOptions workload, ClientFactory clients) {
        // Added to the workload's own first key (0 unless the caller keeps members' keys apart, see agent run).
        // A fleet member's keys follow time's generations, which are new after a restart, and must
        // stay the other members' keys: no shift.
        long shift = recorder.member().isPresent() ? 0 : firstKey(earlierEvents);
        return new WorkloadRunner(workload.toBuilder().firstKey(Math.addExact(workload.firstKey(), shift)).build(),
                clients, recorder).firstProcess(firstProcess);
    }

    /**
     * The first key of a run that continues a spool holding {@code earlierEvents} events. The
     * store is fresh, so its keys must be new to the history: an earlier run used keys below its
     * key count plus its retirements, at most its key count plus its events. Shifting by 16 bits
     * per earlier event clears that unless an earlier run had over 65,535 keys per event it
     * recorded; it overflows only past 2^47 events.
     */
    static long firstKey(long earlierEvents) {
        return earlierEvents << 16;
    }

    /**
     * Runs the workload to its end. A JVM shutdown (Ctrl-C) stops it gracefully and waits up to
     * 10 s for it, so the spool and the history file are closed whole.
     */
    public WorkloadResult run(WorkloadRunner runner) throws InterruptedException {
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            runner.stop();
            try {
                finished.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "isowatch-agent-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return runner.run();
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // Already shutting down: the hook is running and waits for the cleanup below.
            }
        }
    }

    /**
     * Waits until the shipper has sent the whole spool, it has failed, or {@code timeout} has
     * passed. Returns the events still unshipped; 0 when the agent does not ship.
     */
    public long drain(Duration timeout) throws InterruptedException {
        if (shipper == null) {
            return 0;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (spool.backlog() > 0 && shipper.isRunning() && System.nanoTime() < deadline) {
            Thread.sleep(DRAIN_POLL_MILLIS);
        }
        return spool.backlog();
    }

    /** Why the shipper stopped, or null while it runs (or when the agent does not ship). */
    public Throwable shipperFailure() {
        return shipper == null ? null : shipper.failure();
    }

    /**
     * Why the shipper cannot ship, in one line (it failed, or is stalled: a missing topic, an
     * unreachable broker, no progress), or null while it ships (or when the agent does not ship).
     */
    public String shipperProblem() {
        if (shipper == null) {
            return null;
        }
        Throwable failure = shipper.failure();
        if (failure != null) {
            return "the shipper stopped: " + failure.getMessage();
        }
        return shipper.stallReason();
    }

    /**
     * Stops the shipper, closes the recorder and its logs, and stops the metrics server. When no
     * transaction is open and all closed well, leaves a {@link CleanStop} mark in the spool, so
     * that the next start need not read it.
     */
    @Override
    public void close() throws Exception {
        List<AutoCloseable> all = new ArrayList<>();
        if (shipper != null) {
            all.add(shipper);
        }
        all.add(recorder);
        if (metricsServer != null) {
            all.add(metricsServer);
        }
        boolean clean = spool != null && recorder.openTransactions() == 0;
        long lastIndex = clean ? spool.lastIndex() : ChronicleHistoryLog.NO_INDEX;
        Exception first = closeAll(all);
        if (first != null) {
            throw first;
        }
        if (clean) {
            long before = firstProcess == 0 ? -1 : member == null ? firstProcess - 1 : member.process(firstProcess - 1);
            new CleanStop(lastIndex, Math.max(before, recorder.maxProcess())).write(spool.directory());
        }
    }

    /** Opens the spool, naming the fix when Chronicle cannot run for want of the JVM's module flags. */
    private static ChronicleHistoryLog openSpool(Path dir, AgentMetrics metrics) {
        try {
            return ChronicleHistoryLog.open(dir, metrics);
        } catch (AssertionError | LinkageError e) {
            // Chronicle reports missing --add-opens/--add-exports as an Error from its static setup.
            throw new IllegalStateException("cannot open the Chronicle spool in " + dir + " (" + e
                    + "). Chronicle needs the JVM flags of the isowatch.jvm.flags property in the parent pom; "
                    + "run with JAVA_OPTS set to them", e);
        }
    }

    /**
     * Refuses to continue a spool whose processes belong to another member of the history: its
     * numbering would collide with that member's.
     */
    private static void checkMember(AgentOptions options, HistoryMember member, long maxProcess) {
        if (member == null || maxProcess < 0 || member.owns(maxProcess)) {
            return;
        }
        throw new IllegalArgumentException("the spool in " + options.spoolDir() + " holds process " + maxProcess
                + ", which is not one of member " + member.member() + " of history '" + member.history() + "'"
                + (maxProcess < HistoryMember.STRIDE * (HistoryMember.MAX_MEMBER + 1)
                        ? " but of member " + maxProcess / HistoryMember.STRIDE : "")
                + ": continue it as the member that recorded it, or use another spool");
    }

    private static String agentId(AgentOptions options, HistoryEvent last) {
        String asked = options.agentId();
        if (last != null && asked != null && !asked.equals(last.source())) {
            throw new IllegalArgumentException("the spool in " + options.spoolDir() + " belongs to agent '"
                    + last.source() + "', not '" + asked + "': continue it under its own id, or use another spool");
        }
        if (asked != null) {
            return asked;
        }
        if (last != null) {
            return last.source();
        }
        if (options.member() != null) {
            return options.member().history() + "-" + options.member().member();
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "agent";
        }
        return host + "-" + ProcessHandle.current().pid() + "-"
                + ManagementFactory.getRuntimeMXBean().getStartTime() / 1000;
    }

    /** Closes each in order; returns the first failure, the later ones suppressed in it, or null. */
    private static Exception closeAll(List<AutoCloseable> resources) {
        Exception first = null;
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        return first;
    }

    /** The event log when neither a file nor a spool is wanted (metrics and progress only). */
    private static final class Discard implements EventLog {
        @Override
        public void append(HistoryEvent event) {
        }

        @Override
        public void close() {
        }
    }
}
